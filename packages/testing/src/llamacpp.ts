// What the tests with a real llama.cpp share: the machine's engine cache (built once, never
// deleted), the build step that fills it, and the engine's pid as the agent recorded it.
//
// Without a build in the cache, ensureLlamacppBuilt builds it with scripts/build-llamacpp.mjs: on
// this project's 2-core shared machine a fresh build took about 45 minutes (configure included),
// a cached one about a second.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { must } from "@llmgw/domain";
import { repoRoot } from "./paths.ts";

export const LLAMACPP_BUILD_TIMEOUT_MS = 90 * 60_000;
export const LLAMACPP_ENGINE_DIR = join(
  process.env.XDG_CACHE_HOME ?? join(os.homedir(), ".cache"),
  "llmgw",
  "engines",
);

export function ensureLlamacppBuilt(): void {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [join(repoRoot(), "scripts", "build-llamacpp.mjs"), "--engine-dir", LLAMACPP_ENGINE_DIR],
    { encoding: "utf8", timeout: LLAMACPP_BUILD_TIMEOUT_MS },
  );
  if (result.status !== 0)
    throw new Error(`building llama.cpp failed: ${result.stderr}${result.stdout.slice(-4000)}`);
  console.log(`llama.cpp build checked in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** The engine's pid as the agent recorded it (replicas.json in its data dir). */
export function enginePid(dataDir: string): number {
  const state = JSON.parse(readFileSync(join(dataDir, "replicas.json"), "utf8")) as {
    replicas?: Array<{ pid?: number }>;
  };
  return must(state.replicas?.[0]?.pid, "the engine's recorded pid");
}
