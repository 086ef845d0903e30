// Two `llmgw server` processes on one PGlite directory: the second refuses to start with a sentence
// saying PGlite holds one control plane and how to move to PostgreSQL, the first keeps serving, and
// after the first is killed with SIGKILL (its lock left behind) a restart takes the store at once.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupAll, freePort, spawnLlmgw, tempDir, waitFor } from "@llmgw/testing";

afterAll(cleanupAll);

function server(home: string, port: number) {
  return spawnLlmgw(["server"], {
    name: `server ${port}`,
    env: {
      ...{ LLMGW_HOME: home, DATABASE_URL: undefined, LLMGW_PORT: String(port) },
      ...{ LLMGW_AGENT_PORT: "0", LLMGW_ADMIN_PASSWORD: "one-pglite-admin-pw" },
    },
  });
}

const healthy = (port: number) =>
  waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, {
    what: `server on ${port}`,
    timeoutMs: 60_000,
  });

describe("one control plane per PGlite store", () => {
  it("refuses a second server on the store and lets a killed one restart", async () => {
    const home = (await tempDir("one-pglite")).path;
    const [port1, port2] = [await freePort(), await freePort()];
    const first = server(home, port1);
    await healthy(port1);

    const second = server(home, port2);
    const { code } = await second.exited;
    expect(code, second.output()).toBe(2);
    expect(second.output()).toContain(`in use by process`);
    expect(second.output()).toContain("PGlite holds one control plane");
    expect(second.output()).toContain("llmgw server migrate-store");
    expect(second.output()).not.toMatch(/\n\s+at /);
    expect((await fetch(`http://127.0.0.1:${port1}/healthz`)).ok).toBe(true);

    first.kill("SIGKILL");
    await first.exited;
    const stale = JSON.parse(readFileSync(join(home, "data", "llmgw.pid"), "utf8")) as {
      pid: number;
    };
    expect(stale.pid).toBeGreaterThan(0);
    const restarted = server(home, port2);
    await healthy(port2);
    const taken = JSON.parse(readFileSync(join(home, "data", "llmgw.pid"), "utf8")) as {
      pid: number;
    };
    expect(taken.pid).not.toBe(stale.pid);
    await restarted.stop();
  });
});
