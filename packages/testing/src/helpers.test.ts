import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { isAbsolute, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanupAll } from "./cleanup-registry.ts";
import { freePort } from "./free-port.ts";
import { llmgwBin, repoRoot } from "./paths.ts";
import { tempDir } from "./temp-dir.ts";

describe("freePort", () => {
  it("returns a loopback port that can be bound", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(1024);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host: "127.0.0.1", port }, resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("paths", () => {
  it("finds the llmgw entry point relative to this package", () => {
    const bin = llmgwBin();
    expect(isAbsolute(bin)).toBe(true);
    expect(bin).toBe(join(repoRoot(), "packages/cli/bin/llmgw.mjs"));
    expect(existsSync(join(repoRoot(), "pnpm-workspace.yaml"))).toBe(true);
  });
});

describe("tempDir", () => {
  it("creates a prefixed directory and removes it", async () => {
    const dir = await tempDir("unit");
    expect(dir.path).toMatch(/llmgw-unit-/);
    await writeFile(join(dir.path, "file.txt"), "x");
    await dir.remove();
    expect(existsSync(dir.path)).toBe(false);
  });

  it("is removed by cleanupAll", async () => {
    const dir = await tempDir("cleanup");
    await cleanupAll();
    expect(existsSync(dir.path)).toBe(false);
  });
});
