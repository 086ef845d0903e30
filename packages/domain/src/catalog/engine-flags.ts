// Engine arguments an operator may not set, read the way each engine reads its command line.
// llmgw decides where weights live, which engine and card serve them and that they load as
// safetensors; an argument that changes any of that would make the catalog describe a replica
// that is not the one running. A check that reads flags more strictly than the engine would
// let `--trust-remote` through where argparse takes it for `--trust-remote-code`.

export const ENGINES = ["vllm", "llamacpp", "sglang", "trtllm", "sim", "comfyui"] as const;
export type Engine = (typeof ENGINES)[number];

type Why = "files" | "engine" | "gpu" | "safetensors" | "code" | "agent" | "profile" | "adapters";

const WHY_TEXT: Record<Why, string> = {
  files: "it moves where weights or files are read from; set the model's source instead",
  engine: "it picks the engine; set the profile's engine instead",
  gpu: "it picks the GPU; placement chooses cards from the profile's gpu and gpus",
  safetensors: "it undoes loading weights as safetensors; mirror the safetensors instead",
  code: "it runs code shipped with the model; mirror a model that needs none",
  agent: "the agent sets it for every replica (address, port, key and served name)",
  profile: "it is set from the profile; change the profile's field instead",
  adapters: "it loads LoRA adapters; list them in the model's adapters instead",
};

// How the engine matches what it was given against the flags it knows. argparse (vLLM, SGLang)
// accepts any unambiguous beginning of a flag; llama.cpp and click (TensorRT-LLM) only exact names.
type Matching = "argparse-prefix" | "exact";

interface EngineFlagRules {
  matching: Matching;
  refused: Record<string, Why>;
}

const AGENT_FLAGS: Record<string, Why> = {
  "--host": "agent",
  "--port": "agent",
  "--api-key": "agent",
};

const RULES: Record<Engine, EngineFlagRules> = {
  vllm: {
    matching: "argparse-prefix",
    refused: {
      ...AGENT_FLAGS,
      "--model": "files",
      "--tokenizer": "files",
      "--download-dir": "files",
      "--load-format": "safetensors",
      "--trust-remote-code": "code",
      "--device": "gpu",
      "--served-model-name": "agent",
      "--lora-modules": "adapters",
      "--enable-lora": "adapters",
      "--max-loras": "adapters",
      "--max-lora-rank": "adapters",
      "--tensor-parallel-size": "profile",
      "-tp": "profile",
      "--pipeline-parallel-size": "profile",
      "-pp": "profile",
      // A replica spanning nodes: the agent sets these from the shard's rank and its leader.
      "--nnodes": "profile",
      "--node-rank": "profile",
      "--master-addr": "agent",
      "--master-port": "agent",
      "--headless": "agent",
      "--distributed-executor-backend": "agent",
    },
  },
  sglang: {
    matching: "argparse-prefix",
    refused: {
      ...AGENT_FLAGS,
      "--model-path": "files",
      "--tokenizer-path": "files",
      "--download-dir": "files",
      "--load-format": "safetensors",
      "--trust-remote-code": "code",
      "--device": "gpu",
      "--base-gpu-id": "gpu",
      "--gpu-id-step": "gpu",
      "--served-model-name": "agent",
      "--tp-size": "profile",
      "--tensor-parallel-size": "profile",
      "--nnodes": "profile",
      "--node-rank": "profile",
      "--dist-init-addr": "agent",
      "--pp-size": "profile",
      "--pipeline-parallel-size": "profile",
      "--lora-paths": "adapters",
      "--enable-lora": "adapters",
      "--max-loras-per-batch": "adapters",
      "--max-lora-rank": "adapters",
    },
  },
  llamacpp: {
    matching: "exact",
    refused: {
      ...AGENT_FLAGS,
      "--api-key-file": "agent",
      "-a": "agent",
      "--alias": "agent",
      "-m": "files",
      "--model": "files",
      "-mu": "files",
      "--model-url": "files",
      "-hf": "files",
      "-hfr": "files",
      "--hf-repo": "files",
      "-hff": "files",
      "--hf-file": "files",
      "-hfv": "files",
      "-hfrv": "files",
      "--hf-repo-v": "files",
      "-hffv": "files",
      "--hf-file-v": "files",
      "-hft": "files",
      "--hf-token": "files",
      "-mm": "files",
      "--mmproj": "files",
      "-mmu": "files",
      "--mmproj-url": "files",
      "-md": "files",
      "--model-draft": "files",
      "--lora": "adapters",
      "--lora-scaled": "adapters",
      "--lora-init-without-apply": "adapters",
      "--control-vector": "files",
      "-jf": "files",
      "--json-schema-file": "files",
      "--chat-template-file": "files",
      "--slot-save-path": "files",
      "--log-file": "files",
      "--path": "files",
      "-ngl": "gpu",
      "--gpu-layers": "gpu",
      "--n-gpu-layers": "gpu",
      "-dev": "gpu",
      "--device": "gpu",
      "-mg": "gpu",
      "--main-gpu": "gpu",
      "-sm": "gpu",
      "--split-mode": "gpu",
      "-ts": "gpu",
      "--tensor-split": "gpu",
    },
  },
  trtllm: {
    matching: "exact",
    refused: {
      ...AGENT_FLAGS,
      "--tokenizer": "files",
      "--backend": "engine",
      "--extra-llm-api-options": "files",
      "--trust-remote-code": "code",
      "--tp-size": "profile",
      "--pp-size": "profile",
      "--served-model-name": "agent",
    },
  },
  sim: { matching: "exact", refused: { ...AGENT_FLAGS } },
  // ComfyUI parses with argparse; the gate sets where it listens and which folders it reads.
  comfyui: {
    matching: "argparse-prefix",
    refused: {
      ...AGENT_FLAGS,
      "--listen": "agent",
      "--base-directory": "files",
      "--extra-model-paths-config": "files",
      "--output-directory": "files",
      "--input-directory": "files",
      "--temp-directory": "files",
      "--user-directory": "files",
      "--cuda-device": "gpu",
      "--enable-cors-header": "agent",
    },
  },
};

/** The flag part of an argument as the engine sees it: before any `=`, underscores as dashes. */
function flagName(arg: string): string | undefined {
  if (!/^-[^-\d]|^--[^-]/.test(arg)) return undefined;
  const name = arg.split(/[=\s]/, 1)[0] ?? arg;
  // vLLM's parser, SGLang's and llama.cpp's all read `--max_model_len` as `--max-model-len`.
  return name.startsWith("--") ? `--${name.slice(2).replace(/_/g, "-")}` : name;
}

function sameDashes(given: string, refused: string): boolean {
  return given.startsWith("--") === refused.startsWith("--");
}

function refusedFlag(engine: Engine, name: string): string | undefined {
  const rules = RULES[engine];
  if (name in rules.refused) return name;
  if (rules.matching === "exact") return undefined;
  const minimum = name.startsWith("--") ? 3 : 2;
  if (name.length < minimum) return undefined;
  return Object.keys(rules.refused).find(
    (refused) => sameDashes(name, refused) && refused.startsWith(name),
  );
}

export interface FlagRefusal {
  index: number;
  message: string;
}

/** Every argument the engine would read as a refused flag, with why and what to do instead. */
export function checkEngineArgs(engine: Engine, args: readonly string[]): FlagRefusal[] {
  const refusals: FlagRefusal[] = [];
  args.forEach((arg, index) => {
    const name = flagName(arg);
    if (name === undefined) return;
    const refused = refusedFlag(engine, name);
    if (refused === undefined) return;
    const why = WHY_TEXT[RULES[engine].refused[refused] as Why];
    const as = refused === name ? "" : ` (${engine} reads it as ${refused})`;
    refusals.push({ index, message: `"${arg}" is refused${as}: ${why}` });
  });
  return refusals;
}
