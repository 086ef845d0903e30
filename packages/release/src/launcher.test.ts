import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allocatorInUse, takeLauncherPreload } from "./launcher";

const JEMALLOC = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";

describe("takeLauncherPreload", () => {
  it("takes the launcher's library out of LD_PRELOAD and keeps the operator's own, in order", () => {
    const env: NodeJS.ProcessEnv = {
      LD_PRELOAD: `/opt/a.so:${JEMALLOC} /opt/b.so`,
      LLMGW_MALLOC_LIB: JEMALLOC,
    };
    expect(takeLauncherPreload(env)).toBe(JEMALLOC);
    expect(env).toEqual({ LD_PRELOAD: "/opt/a.so:/opt/b.so" });
  });

  it("removes LD_PRELOAD when the launcher's library was all it held", () => {
    const env: NodeJS.ProcessEnv = {
      LD_PRELOAD: JEMALLOC,
      LLMGW_MALLOC_LIB: JEMALLOC,
      PATH: "/bin",
    };
    expect(takeLauncherPreload(env)).toBe(JEMALLOC);
    expect(env).toEqual({ PATH: "/bin" });
  });

  it("takes the launcher's jemalloc options out and leaves an operator's own", () => {
    const conf = "dirty_decay_ms:0,muzzy_decay_ms:0";
    const env: NodeJS.ProcessEnv = {
      LD_PRELOAD: JEMALLOC,
      LLMGW_MALLOC_LIB: JEMALLOC,
      MALLOC_CONF: conf,
      LLMGW_MALLOC_CONF: conf,
    };
    expect(takeLauncherPreload(env)).toBe(JEMALLOC);
    expect(env).toEqual({});
    const own: NodeJS.ProcessEnv = { LD_PRELOAD: JEMALLOC, MALLOC_CONF: "narenas:1" };
    expect(takeLauncherPreload(own)).toBeUndefined();
    expect(own).toEqual({ LD_PRELOAD: JEMALLOC, MALLOC_CONF: "narenas:1" });
  });

  it("leaves an operator's LD_PRELOAD alone when the launcher preloaded nothing", () => {
    const env: NodeJS.ProcessEnv = { LD_PRELOAD: JEMALLOC };
    expect(takeLauncherPreload(env)).toBeUndefined();
    expect(env).toEqual({ LD_PRELOAD: JEMALLOC });
  });
});

describe("allocatorInUse", () => {
  it("says jemalloc when its library is mapped, and the system's otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "allocator-maps-"));
    const line = (path: string) => `7f1c2a000000-7f1c2a00a000 r--p 00000000 08:01 1234 ${path}\n`;
    writeFileSync(join(dir, "with"), line("/usr/lib/x86_64-linux-gnu/libc.so.6") + line(JEMALLOC));
    writeFileSync(join(dir, "without"), line("/usr/lib/x86_64-linux-gnu/libc.so.6"));
    expect(allocatorInUse(join(dir, "with"))).toBe("jemalloc");
    expect(allocatorInUse(join(dir, "without"))).toBe("system");
    expect(allocatorInUse(join(dir, "missing"))).toBe("system");
    rmSync(dir, { recursive: true });
  });
});
