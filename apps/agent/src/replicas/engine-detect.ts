// Which engines a real node offers. vLLM, llama.cpp and TensorRT-LLM install an executable, found
// on the engines' PATH. SGLang installs none: it runs as `python3 -m sglang.launch_server`, so the
// node offers it when the engines' python3 can find that module. The check asks Python where the
// package lives without importing it (importing SGLang loads torch, which takes seconds).
import { messageOf } from "@llmgw/domain";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { ExecFn } from "../discovery/exec";

/** The executables that make a real node offer each engine. */
const ENGINE_EXECUTABLES: Readonly<Record<string, string>> = {
  vllm: "vllm",
  llamacpp: "llama-server",
  trtllm: "trtllm-serve",
};

/** The interpreter the SGLang adapter runs; found on the same PATH the engine gets. */
const SGLANG_PYTHON = "python3";

const SGLANG_PROBE_TIMEOUT_MS = 15_000;

/** Exits 0 when `sglang.launch_server` is importable, without importing anything. */
export const SGLANG_PROBE = [
  "import importlib.util, os, sys",
  'spec = importlib.util.find_spec("sglang")',
  "dirs = (spec.submodule_search_locations or []) if spec else []",
  'sys.exit(0 if any(os.path.isfile(os.path.join(d, "launch_server.py")) for d in dirs) else 1)',
].join("\n");

export interface EngineDetection {
  engines: string[];
  /** Why an engine that could be here is not offered, for the agent's log. */
  notes: string[];
}

/** Engines this node can start, looked for with the environment engines will get. */
export async function detectEngines(
  engineEnv: Record<string, string>,
  exec: ExecFn,
): Promise<EngineDetection> {
  const dirs = (engineEnv.PATH ?? "").split(path.delimiter).filter((dir) => dir !== "");
  const engines = Object.entries(ENGINE_EXECUTABLES)
    .filter(([, executable]) => findExecutable(dirs, executable) !== undefined)
    .map(([engine]) => engine);
  const sglang = await probeSglang(dirs, engineEnv, exec);
  if (sglang.isPresent) engines.push("sglang");
  return { engines, notes: sglang.note === undefined ? [] : [sglang.note] };
}

async function probeSglang(
  dirs: readonly string[],
  engineEnv: Record<string, string>,
  exec: ExecFn,
): Promise<{ isPresent: boolean; note?: string }> {
  const python = findExecutable(dirs, SGLANG_PYTHON);
  if (python === undefined) return { isPresent: false };
  try {
    const result = await exec(python, ["-c", SGLANG_PROBE], {
      timeoutMs: SGLANG_PROBE_TIMEOUT_MS,
      env: engineEnv,
    });
    return { isPresent: result.exitCode === 0 };
  } catch (error) {
    // A python that hangs or cannot start is a broken install, not a missing one: say so.
    return {
      isPresent: false,
      note: `sglang not offered: ${python} -c failed: ${messageOf(error)}`,
    };
  }
}

function findExecutable(dirs: readonly string[], name: string): string | undefined {
  return dirs.map((dir) => path.join(dir, name)).find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
