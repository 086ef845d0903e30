// LoRA adapters a model serves beside its base weights. Each is fetched by the node like the
// weights (same pickle rule, same cache) and named to clients as `MODEL:ADAPTER`; the limits here
// are what each engine can hold at once, so a definition no engine could start is refused when it
// is added rather than by a replica that fails on a node.
import { z } from "zod";
import type { Engine } from "./engine-flags";
import { pickleExtension, sourceKind } from "./source";

/** What one engine can load: the highest rank and the most adapters at once. */
interface AdapterLimits {
  rankMax: number;
  loadedMax: number;
}

/**
 * vLLM takes --max-lora-rank up to 512 and keeps --max-loras adapters on the card; SGLang's
 * --max-loras-per-batch defaults to 8; llama.cpp holds each --lora in memory beside the model.
 * The simulator follows vLLM. TensorRT-LLM and ComfyUI take no adapters from the catalog.
 */
const ADAPTER_LIMITS: Partial<Record<Engine, AdapterLimits>> = {
  vllm: { rankMax: 512, loadedMax: 32 },
  sglang: { rankMax: 512, loadedMax: 8 },
  llamacpp: { rankMax: 1_024, loadedMax: 8 },
  sim: { rankMax: 512, loadedMax: 32 },
};

/** vLLM accepts only these --max-lora-rank values; the agent passes the smallest that fits. */
export const VLLM_LORA_RANKS = [1, 8, 16, 32, 64, 128, 256, 320, 512] as const;

const ADAPTER_NAME = /^[a-z0-9](?:[a-z0-9._-]{0,61}[a-z0-9])?$/;

export const adapterSchema = z.strictObject({
  name: z.string().regex(ADAPTER_NAME, {
    error:
      'adapter name: use 1-63 lowercase letters, digits, ".", "_" or "-", starting and ending with a letter or digit (clients ask for MODEL:NAME)',
  }),
  source: z.string().min(1).max(2_048),
  /** The adapter's LoRA rank (r in its adapter_config.json); checked against each engine's limit. */
  rank: z.int().min(1).max(4_096).optional(),
});

export type Adapter = z.output<typeof adapterSchema>;

/** The name clients send for an adapter of a model. Model names never hold ":". */
export function adapterModelName(model: string, adapter: string): string {
  return `${model}:${adapter}`;
}

/** Splits `MODEL:ADAPTER`; undefined for a plain model name. */
export function splitAdapterModelName(
  requested: string,
): { model: string; adapter: string } | undefined {
  const at = requested.indexOf(":");
  if (at <= 0 || at === requested.length - 1) return undefined;
  return { model: requested.slice(0, at), adapter: requested.slice(at + 1) };
}

export interface AdapterRefusal {
  path: (string | number)[];
  message: string;
}

interface AdapterModel {
  allow_pickle: boolean;
  adapters: readonly Adapter[];
  profiles: readonly { name: string; engine: Engine }[];
}

function checkAdapterSource(
  adapter: Adapter,
  index: number,
  model: AdapterModel,
): AdapterRefusal[] {
  const path = ["adapters", index, "source"];
  if (sourceKind(adapter.source) === undefined)
    return [
      {
        path,
        message: `adapter "${adapter.name}": "${adapter.source}" is not a source; give a Hugging Face id (org/name), an http(s):// URL, a mirror:PATH on the mirrors, a file:// URL or an absolute path on the nodes`,
      },
    ];
  const pickle = pickleExtension(adapter.source);
  if (pickle && !model.allow_pickle)
    return [
      {
        path,
        message: `adapter "${adapter.name}": "${adapter.source}" is a Python pickle (${pickle}), which runs code when loaded; mirror the adapter's adapter_model.safetensors and point source at it, or set allow_pickle: true if you trust who made it`,
      },
    ];
  const wantsGguf = model.profiles.some((profile) => profile.engine === "llamacpp");
  if (wantsGguf && !adapter.source.split(/[?#]/, 1)[0]?.toLowerCase().endsWith(".gguf"))
    return [
      {
        path,
        message: `adapter "${adapter.name}": llama.cpp loads a LoRA only as one .gguf file; convert it with llama.cpp's convert_lora_to_gguf.py and give that file`,
      },
    ];
  // llama-server reads `--lora-scaled PATH:SCALE,…`: a node path with ":" or "," would be cut.
  const local =
    sourceKind(adapter.source) === "file" ? adapter.source.replace(/^file:\/\//i, "") : "";
  if (wantsGguf && /[:,]/.test(local))
    return [
      {
        path,
        message: `adapter "${adapter.name}": llama.cpp cannot load a LoRA whose path holds ":" or ","; move or link the file to a path without them`,
      },
    ];
  return [];
}

function checkEngineLimits(model: AdapterModel): AdapterRefusal[] {
  const refusals: AdapterRefusal[] = [];
  const rankMax = Math.max(0, ...model.adapters.map((adapter) => adapter.rank ?? 0));
  model.profiles.forEach((profile, index) => {
    const path = ["profiles", index, "engine"];
    const limits = ADAPTER_LIMITS[profile.engine];
    if (limits === undefined) {
      const engines = Object.keys(ADAPTER_LIMITS).join(", ");
      refusals.push({
        path,
        message: `profile "${profile.name}": engine ${profile.engine} cannot serve LoRA adapters; use ${engines}, or remove adapters`,
      });
      return;
    }
    if (model.adapters.length > limits.loadedMax)
      refusals.push({
        path,
        message: `profile "${profile.name}": engine ${profile.engine} holds at most ${limits.loadedMax} adapters at once and the model lists ${model.adapters.length}; remove some, or make a second model with the rest`,
      });
    if (rankMax > limits.rankMax)
      refusals.push({
        path,
        message: `profile "${profile.name}": engine ${profile.engine} loads adapters up to rank ${limits.rankMax} and one has rank ${rankMax}; train it at a lower rank or serve it with another engine`,
      });
  });
  return refusals;
}

/** Every reason the model's adapters cannot be served as written; empty when they can. */
export function checkAdapters(model: AdapterModel): AdapterRefusal[] {
  if (model.adapters.length === 0) return [];
  const refusals: AdapterRefusal[] = [];
  const seen = new Set<string>();
  model.adapters.forEach((adapter, index) => {
    if (seen.has(adapter.name))
      refusals.push({
        path: ["adapters", index, "name"],
        message: `adapter "${adapter.name}" is named twice; give each adapter its own name`,
      });
    seen.add(adapter.name);
    refusals.push(...checkAdapterSource(adapter, index, model));
  });
  return [...refusals, ...checkEngineLimits(model)];
}
