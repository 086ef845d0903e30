// Curated definitions shipped with llmgw, added by name (`llmgw ctl model add PRESET`, the
// console's add-model dialog). They go through the same schema as any definition; a test holds
// each to it, including its own pickle check.
import type { ModelDefinitionInput } from "./model-definition";

const TRIPOSR_CKPT = "https://huggingface.co/stabilityai/TripoSR/resolve/main/model.ckpt";

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
  {
    name: "flux-schnell",
    source:
      "https://huggingface.co/black-forest-labs/FLUX.1-schnell/resolve/main/flux1-schnell.safetensors",
    size_gb: 24,
    profiles: [
      {
        name: "comfyui",
        engine: "comfyui",
        gpu: { min_compute_capability: 8.0, min_memory_gb: 24 },
        memory_gb: 32,
      },
    ],
    replicas: { min: 1, max: 2 },
    comfyui: { workflow: "flux-schnell" },
  },
  {
    name: "triposr",
    source: TRIPOSR_CKPT,
    size_gb: 1.7,
    // TripoSR ships only model.ckpt, a pickle; there is no safetensors copy to mirror.
    allow_pickle: true,
    profiles: [
      {
        name: "comfyui",
        engine: "comfyui",
        gpu: { min_compute_capability: 7.0, min_memory_gb: 8 },
        memory_gb: 8,
      },
    ],
    replicas: { min: 1, max: 1 },
    comfyui: { workflow: "/etc/llmgw/workflows/triposr.json" },
  },
];

/**
 * What an operator must know before adding a preset, shown beside it: above all a preset that
 * opts out of a safety check says so here.
 */
const PRESET_NOTES: Readonly<Record<string, string>> = {
  "flux-schnell":
    "FLUX.1 [schnell] pictures through ComfyUI (built-in flux-schnell workflow, 4 steps)",
  triposr:
    "TripoSR (a picture to a 3D mesh) through ComfyUI. Its weights are only published as a Python pickle (model.ckpt), which runs code when loaded: this preset sets allow_pickle: true. Its workflow is the file /etc/llmgw/workflows/triposr.json on the control plane, which you provide",
};

export function presetNote(name: string): string | undefined {
  return PRESET_NOTES[name];
}

/**
 * Whether a preset is offered to a fleet whose nodes offer these engines: a preset that only
 * ComfyUI can serve is offered once some node can run comfyui (its settings name a ComfyUI).
 */
export function isPresetOffered(
  preset: ModelDefinitionInput,
  offeredEngines: ReadonlySet<string>,
): boolean {
  const engines = (preset.profiles ?? []).map((profile) => profile.engine);
  const needsComfyui = engines.length > 0 && engines.every((engine) => engine === "comfyui");
  return !needsComfyui || offeredEngines.has("comfyui");
}

export function presetNames(): string[] {
  return PRESETS.map((preset) => preset.name);
}

/** A copy, so a caller that edits the preset before adding it cannot change the shipped one. */
export function findPreset(name: string): ModelDefinitionInput | undefined {
  const preset = PRESETS.find((candidate) => candidate.name === name);
  return preset ? structuredClone(preset) : undefined;
}
