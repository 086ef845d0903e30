import { fileURLToPath } from "node:url";

// Computed from this file's location so the helpers work in any checkout, not just /work/main.
const repoRootPath = fileURLToPath(new URL("../../../", import.meta.url)).replace(/\/$/, "");

/** Absolute path of the workspace root. */
export function repoRoot(): string {
  return repoRootPath;
}

/** Absolute path of the `llmgw` entry point (`packages/cli/bin/llmgw.mjs`). */
export function llmgwBin(): string {
  return fileURLToPath(new URL("../../cli/bin/llmgw.mjs", import.meta.url));
}
