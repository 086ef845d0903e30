import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadOrCreateNodeId } from "./node-identity";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "llmgw-agent-id-"));
  dirs.push(dir);
  return dir;
}

describe("loadOrCreateNodeId", () => {
  it("creates the id once, mode 0600, and returns the same id on the next start", async () => {
    const dataDir = join(await tempDir(), "nested", "agent");
    const first = await loadOrCreateNodeId(dataDir, () => "id-1");
    const second = await loadOrCreateNodeId(dataDir, () => "id-2");
    expect(first).toBe("id-1");
    expect(second).toBe("id-1");
    expect((await readFile(join(dataDir, "node-id"), "utf8")).trim()).toBe("id-1");
    expect((await stat(join(dataDir, "node-id"))).mode & 0o777).toBe(0o600);
  });

  it("keeps an id written by an operator", async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, "node-id"), "  gpu-node-7 \n");
    expect(await loadOrCreateNodeId(dataDir, () => "other")).toBe("gpu-node-7");
  });

  it("generates a random uuid by default", async () => {
    expect(await loadOrCreateNodeId(await tempDir())).toMatch(/^[0-9a-f-]{36}$/);
  });
});
