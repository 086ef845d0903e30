// Curated definitions shipped with llmgw, added by name (`llmgw ctl model add PRESET`, the
// console's add-model dialog). They go through the same schema as any definition; a test holds
// each to it, including its own pickle check.
import type { ModelDefinitionInput } from "./model-definition";

const QWEN_05B_GGUF =
  "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf";

export const PRESETS: readonly ModelDefinitionInput[] = [
  {
    name: "qwen2.5-0.5b-instruct",
    source: QWEN_05B_GGUF,
    size_gb: 0.5,
    profiles: [
      {
        name: "cuda",
        engine: "llamacpp",
        gpu: { min_compute_capability: 6.0, min_memory_gb: 4 },
        context_length: 8_192,
        memory_gb: 2,
      },
      { name: "cpu", engine: "llamacpp", context_length: 8_192, memory_gb: 2, cpu_cores: 2 },
    ],
    replicas: { min: 1, max: 2 },
  },
  {
    name: "llama-3.1-8b-instruct",
    source: "meta-llama/Llama-3.1-8B-Instruct",
    size_gb: 16,
    profiles: [
      {
        name: "vllm",
        engine: "vllm",
        gpu: { min_compute_capability: 8.0, min_memory_gb: 24 },
        context_length: 32_768,
        memory_gb: 24,
      },
    ],
    replicas: { min: 1, max: 4 },
  },
  {
    name: "sim-chat",
    source: "file:///var/lib/llmgw/sim/sim-chat",
    profiles: [{ name: "sim", engine: "sim", context_length: 8_192, memory_gb: 1 }],
    replicas: { min: 2, max: 4 },
  },
  {
    name: "sim-gpu-chat",
    source: "file:///var/lib/llmgw/sim/sim-gpu-chat",
    profiles: [
      {
        name: "sim",
        engine: "sim",
        gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
        gpus: 1,
      },
    ],
    replicas: { min: 1, max: 2 },
  },
];

export function presetNames(): string[] {
  return PRESETS.map((preset) => preset.name);
}

/** A copy, so a caller that edits the preset before adding it cannot change the shipped one. */
export function findPreset(name: string): ModelDefinitionInput | undefined {
  const preset = PRESETS.find((candidate) => candidate.name === name);
  return preset ? structuredClone(preset) : undefined;
}
