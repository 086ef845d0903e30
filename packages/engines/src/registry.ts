// The adapters by catalog engine name, with their default executables.
import { createComfyuiAdapter } from "./adapters/comfyui";
import { llamaCppAdapter } from "./adapters/llamacpp";
import { sglangAdapter } from "./adapters/sglang";
import { simAdapter } from "./adapters/sim";
import { trtllmAdapter } from "./adapters/trtllm";
import { vllmAdapter } from "./adapters/vllm";
import { ENGINE_NAMES, type EngineAdapter, type EngineName } from "./types";

export const engineAdapters: Readonly<Record<EngineName, EngineAdapter>> = {
  vllm: vllmAdapter,
  llamacpp: llamaCppAdapter,
  sglang: sglangAdapter,
  trtllm: trtllmAdapter,
  sim: simAdapter,
  // A node's ComfyUI directory is its own setting, so the agent builds this one with it.
  comfyui: createComfyuiAdapter({ comfyuiDir: "ComfyUI", baseDirectoryRoot: "comfyui-replicas" }),
};

export function isEngineName(name: string): name is EngineName {
  return (ENGINE_NAMES as readonly string[]).includes(name);
}

export function getEngineAdapter(name: string): EngineAdapter {
  if (!isEngineName(name)) {
    throw new Error(`unknown engine "${name}"; known engines: ${ENGINE_NAMES.join(", ")}`);
  }
  return engineAdapters[name];
}
