import { mkdtemp, rm } from "node:fs/promises";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerCleanup } from "./cleanup-registry.ts";

export interface TempDir {
  readonly path: string;
  /** Removes the directory and everything in it; safe to call twice. */
  remove(): Promise<void>;
}

/** Creates `$TMPDIR/llmgw-<prefix>-XXXXXX`, removed by `remove()`, `cleanupAll()` or process exit. */
export async function tempDir(prefix: string): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), `llmgw-${prefix}-`));
  const handle = registerCleanup({
    name: `temp dir ${path}`,
    stop: () => remove(),
    killNow: () => rmSync(path, { recursive: true, force: true }),
  });
  async function remove(): Promise<void> {
    handle.unregister();
    await rm(path, { recursive: true, force: true, maxRetries: 3 });
  }
  return { path, remove };
}
