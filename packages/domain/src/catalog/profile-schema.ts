// One profile of a model definition: the engine, the cards and host resources each replica needs,
// its arguments and environment (what is refused there and why), placement hints and timeouts.
import { z } from "zod";
import { ENGINES } from "./engine-flags";
import { gpuSchema } from "./gpu-need";

export const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?$/;
export const NAME_RULE =
  'use 1-63 lowercase letters, digits, "-" or ".", starting and ending with a letter or digit ' +
  "(it appears in URLs, metric labels and the API's model field)";

// Variables through which an engine would pick its own cards, move its caches or see a key.
export const REFUSED_ENV: Record<string, string> = {
  CUDA_VISIBLE_DEVICES: "placement chooses the cards; the agent sets it",
  NVIDIA_VISIBLE_DEVICES: "placement chooses the cards; the agent sets it",
  HIP_VISIBLE_DEVICES: "placement chooses the cards; the agent sets it",
  HF_HOME: "the agent owns the weight cache; set the model's source instead",
  HF_HUB_CACHE: "the agent owns the weight cache; set the model's source instead",
  VLLM_API_KEY: "the agent derives each replica's key",
  LLAMA_API_KEY: "the agent derives each replica's key",
};

const labelsSchema = z.record(
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,252}$/, {
    error: "label keys are letters, digits, '.', '_', '/' and '-'",
  }),
  z.string().max(63),
);

export const count = (min: number, max: number) => z.int().min(min).max(max);

export const duration = (what: string, minMs: number) =>
  z
    .int({ error: `${what} is a whole number of milliseconds` })
    .min(minMs, { error: `${what} must be at least ${minMs} ms` })
    .max(86_400_000, { error: `${what} must be at most a day (86400000 ms)` });

export const profileSchema = z.strictObject({
  name: z.string().regex(NAME_PATTERN, { error: `profile name: ${NAME_RULE}` }),
  engine: z.enum(ENGINES, { error: `engine must be one of ${ENGINES.join(", ")}` }),
  /** A class ("H100-80G"), a need standing for every class meeting it, or absent for CPU. */
  gpu: gpuSchema.optional(),
  /** Cards each replica holds on each of its nodes. */
  gpus: count(0, 64).optional(),
  nodes: count(1, 64).default(1),
  tensor_parallel: count(1, 512).optional(),
  context_length: count(128, 10_000_000).optional(),
  /**
   * Sequences the engine serves at once, each with the whole context (llama.cpp `--parallel`,
   * vLLM `--max-num-seqs`); absent: the engine's own default. Sizing holds the cache to it.
   */
  slots: count(1, 4_096).optional(),
  /** Host memory and cores each replica needs on each node. */
  memory_gb: z.number().min(0).max(65_536).default(0),
  cpu_cores: z.number().min(0).max(4_096).default(0),
  args: z.array(z.string().max(4_096)).max(256).default([]),
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
        error: "environment names are letters, digits and _",
      }),
      z.string(),
    )
    .default({}),
  node_selector: z.strictObject({ labels: labelsSchema.default({}) }).default({ labels: {} }),
  /** A multi-node replica's shards all go to one facility domain of this kind (docs/facility.md). */
  keep_within: z
    .enum(["rack", "row", "room"], { error: "keep_within must be one of rack, row, room" })
    .optional(),
  /**
   * What each card draws serving this profile, counted against power budgets when it is above the
   * card's own figures (docs/facility.md#power-budgets).
   */
  power_watts_per_card: z
    .number({ error: "power_watts_per_card is a number of watts" })
    .positive({ error: "power_watts_per_card must be above 0" })
    .max(10_000, { error: "power_watts_per_card must be at most 10000 W" })
    .optional(),
  /**
   * How long this profile's engine may take to get ready, counted from the last download progress;
   * absent: the server's LLMGW_START_TIMEOUT_MS. Large models loading from slow disks want more.
   */
  start_timeout_ms: duration("start_timeout_ms", 1_000).optional(),
});
