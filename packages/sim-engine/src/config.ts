// Flags and environment of `llmgw sim-engine`, parsed in one place into a plain value. The key is
// read only from the environment, like vLLM's VLLM_API_KEY, so it never shows in `ps`.
import { messageOf } from "@llmgw/domain";
import { parseArgs } from "node:util";
import { z } from "zod";
import { parseFaults, type Faults } from "./faults";
import { parseLoraModules, takeLoraModules, type SimLoraModule } from "./lora";
import {
  MULTI_NODE_STRING_FLAGS,
  MULTI_NODE_USAGE,
  parseMultiNode,
  type MultiNodeConfig,
} from "./multi-node";

export interface SimEngineConfig {
  host: string;
  port: number;
  model: string;
  tokensPerSecond: number;
  ttftMs: number;
  readyAfterMs: number;
  faults: Faults;
  /** Seeds the fault dice, so a run with a rate can be repeated. */
  seed: number;
  maxNumSeqs: number;
  kvCacheTokens: number;
  maxModelLen: number | undefined;
  embeddingDim: number;
  /** `--control`: PUT /sim/control may change faults and reported load while it runs (tests). */
  isControlOpen: boolean;
  /** Undefined: the engine is open to anyone, as vLLM is without a key (with a warning). */
  apiKey: string | undefined;
  /** Set when this process is one shard of a replica spanning nodes. */
  multiNode?: MultiNodeConfig;
  /** LoRA adapters, each served under its own name beside `model` (simulated). */
  loraModules: SimLoraModule[];
}

export class SimEngineConfigError extends Error {
  override readonly name = "SimEngineConfigError";
}

export const SIM_ENGINE_USAGE = `usage: llmgw sim-engine [options]

A simulated OpenAI-compatible engine (vLLM's metric names) for simulated nodes and tests.
The replica key comes from SIM_ENGINE_API_KEY or VLLM_API_KEY; without one the engine is open.

  --host ADDR               default 127.0.0.1
  --port N                  default 8000; 0 picks a free port (printed on start)
  --model NAME              served model name (default sim-model)
  --tokens-per-second N     generation speed per request (default 50)
  --ttft-ms N               time to first token (default 100)
  --ready-after-ms N        /health answers 503 until then (default 1000)
  --max-num-seqs N          requests generated at once; more wait (default 8)
  --kv-cache-tokens N       simulated KV-cache size in tokens (default 32768)
  --max-model-len N         refuse prompts + max_tokens beyond this
  --embedding-dim N         embedding vector length (default 256)
  --seed N                  seed for fault rates (default: from the clock)
  --fault SPEC              repeatable: never-ready | crash-after:SECONDS | status-5xx:RATE |
                            status-429:RATE | drop-stream:AFTER_N_CHUNKS   (RATE is 0..1)
  --enable-lora             accept --lora-modules (as vLLM does)
  --lora-modules NAME=PATH… serve each simulated adapter as model NAME; PATH is not read
  --max-loras N, --max-lora-rank N   accepted and ignored, as limits of a real engine
  --control                 open PUT /sim/control, which replaces the faults and adds to the
                            reported waiting queue while the engine runs (for tests; no key)
${MULTI_NODE_USAGE}`;

const count = (flag: string, min: number) =>
  z.coerce
    .number({ message: `${flag} must be a number` })
    .int(`${flag} must be a whole number`)
    .min(min, `${flag} must be at least ${min}`);

const flagsSchema = z.object({
  host: z.string().min(1, "--host must not be empty").default("127.0.0.1"),
  port: count("--port", 0).max(65535, "--port must be 0-65535").default(8000),
  model: z.string().min(1, "--model must not be empty").default("sim-model"),
  "tokens-per-second": z.coerce
    .number({ message: "--tokens-per-second must be a number" })
    .positive("--tokens-per-second must be above 0")
    .default(50),
  "ttft-ms": count("--ttft-ms", 0).default(100),
  "ready-after-ms": count("--ready-after-ms", 0).default(1000),
  "max-num-seqs": count("--max-num-seqs", 1).default(8),
  "kv-cache-tokens": count("--kv-cache-tokens", 1).default(32768),
  "max-model-len": count("--max-model-len", 1).optional(),
  "embedding-dim": count("--embedding-dim", 1)
    .max(8192, "--embedding-dim must be at most 8192")
    .default(256),
  seed: count("--seed", 0).optional(),
});

const stringFlags = [
  "host",
  "port",
  "model",
  "tokens-per-second",
  "ttft-ms",
  "ready-after-ms",
  "max-num-seqs",
  "kv-cache-tokens",
  "max-model-len",
  "embedding-dim",
  "seed",
  "max-loras",
  "max-lora-rank",
  ...MULTI_NODE_STRING_FLAGS,
] as const;

export function parseSimEngineArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SimEngineConfig {
  let values: Record<string, string | string[] | boolean | undefined>;
  const { rest, specs } = takeLoraModules(argv);
  try {
    const options = Object.fromEntries(
      stringFlags.map((flag) => [flag, { type: "string" as const }]),
    );
    ({ values } = parseArgs({
      args: rest,
      options: {
        ...options,
        fault: { type: "string", multiple: true },
        control: { type: "boolean" },
        headless: { type: "boolean" },
        "enable-lora": { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new SimEngineConfigError(messageOf(error));
  }
  const {
    control: _control,
    headless,
    "enable-lora": enableLora,
    "max-loras": _maxLoras,
    "max-lora-rank": _maxLoraRank,
    ...flagValues
  } = values;
  const loraModules = parseLoraModules(specs, enableLora === true);
  if (typeof loraModules === "string") throw new SimEngineConfigError(loraModules);
  const parsed = flagsSchema.safeParse(flagValues);
  if (!parsed.success)
    throw new SimEngineConfigError(parsed.error.issues.map((issue) => issue.message).join("; "));
  const flags = parsed.data;
  const multiNode = parseMultiNodeOrThrow(flagValues, headless === true);
  return {
    host: flags.host,
    port: flags.port,
    model: flags.model,
    tokensPerSecond: flags["tokens-per-second"],
    ttftMs: flags["ttft-ms"],
    readyAfterMs: flags["ready-after-ms"],
    faults: parseFaultsOrThrow((values.fault as string[] | undefined) ?? []),
    seed: flags.seed ?? Date.now() % 2 ** 31,
    maxNumSeqs: flags["max-num-seqs"],
    kvCacheTokens: flags["kv-cache-tokens"],
    maxModelLen: flags["max-model-len"],
    embeddingDim: flags["embedding-dim"],
    isControlOpen: values.control === true,
    apiKey: nonEmpty(env.SIM_ENGINE_API_KEY) ?? nonEmpty(env.VLLM_API_KEY),
    ...(multiNode === undefined ? {} : { multiNode }),
    loraModules,
  };
}

function parseMultiNodeOrThrow(
  values: Record<string, unknown>,
  isHeadless: boolean,
): MultiNodeConfig | undefined {
  try {
    return parseMultiNode(values, isHeadless);
  } catch (error) {
    throw new SimEngineConfigError(messageOf(error));
  }
}

function parseFaultsOrThrow(specs: readonly string[]): Faults {
  try {
    return parseFaults(specs);
  } catch (error) {
    throw new SimEngineConfigError(messageOf(error));
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** The only place the simulator reads its process's environment. */
export function simEngineEnv(): Record<string, string | undefined> {
  return {
    SIM_ENGINE_API_KEY: process.env.SIM_ENGINE_API_KEY,
    VLLM_API_KEY: process.env.VLLM_API_KEY,
  };
}
