// `ctl bench MODEL`: a measured load on one of the model's replicas, straight to its engine with
// the key the control plane hands an admin (audited), or through the cluster's /v1 with an API key
// (--gateway). Each concurrency step reports throughput, time to first token, time per output
// token and latency percentiles, as the engines' own serving benchmarks do.
import { parseCountFlag, required, UsageError } from "../args";
import { runStep, type LoadTarget, type StepShape } from "../bench/load";
import { stepsTable, type StepSummary } from "../bench/summary";
import { readSecretFile } from "../secret-file";
import { printJson, type Command, type CommandContext } from "./command";

const USAGE = "bench MODEL";
const CONCURRENCY_MAX = 1_024;
const DEFAULT_CONCURRENCY = [1, 4, 16];

/** `1,4,16` → [1, 4, 16]: each a whole number from 1 to 1024. */
export function parseConcurrency(value: string | undefined): number[] {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const steps = value.split(",").map((part) => Number(part.trim()));
  if (steps.some((step) => !Number.isInteger(step) || step < 1 || step > CONCURRENCY_MAX))
    throw new UsageError(
      `--concurrency takes whole numbers from 1 to ${CONCURRENCY_MAX}, comma-separated, such as 1,4,16, not "${value}"`,
    );
  return steps;
}

/** The step shapes: each concurrency with its request count and the prompt and answer lengths. */
export function stepShapes(ctx: Pick<CommandContext, "values">): StepShape[] {
  const requests = parseCountFlag("requests", ctx.values.requests);
  const promptTokens = parseCountFlag("prompt-tokens", ctx.values["prompt-tokens"]) ?? 256;
  const maxTokens = parseCountFlag("max-tokens", ctx.values["max-tokens"]) ?? 128;
  return parseConcurrency(ctx.values.concurrency).map((concurrency) => ({
    concurrency,
    requests: requests ?? Math.max(8, 4 * concurrency),
    promptTokens,
    maxTokens,
  }));
}

async function targetOf(
  ctx: CommandContext,
  model: string,
): Promise<{ target: LoadTarget; what: string }> {
  if (ctx.values.gateway) {
    if (ctx.values.replica !== undefined)
      throw new UsageError(
        "--replica names one replica; --gateway lets the cluster choose; give one",
      );
    const file = ctx.values["api-key-file"];
    const key = file === undefined ? ctx.env.apiKey : readSecretFile("api-key-file", file);
    if (!key)
      throw new UsageError(
        "--gateway needs an llmgw API key: --api-key-file F, or LLMGW_API_KEY (make one with `llmgw ctl keys create`)",
      );
    const baseUrl = `${ctx.target.server.replace(/\/+$/, "")}/v1`;
    return {
      target: { baseUrl, key, model, ignoreEos: false },
      what: `${model} through ${baseUrl}`,
    };
  }
  const access = await ctx.api.replicas.benchAccess.mutate({ model, replica: ctx.values.replica });
  return {
    target: {
      baseUrl: access.baseUrl,
      key: access.key,
      model: access.servedModelName,
      ignoreEos: true,
    },
    what: `replica ${access.replicaId} of ${model} (${access.engine} on ${access.nodeName}) at ${access.baseUrl}`,
  };
}

async function bench(ctx: CommandContext): Promise<number> {
  const model = required(ctx.args, 0, "MODEL", USAGE);
  const shapes = stepShapes(ctx);
  const { target, what } = await targetOf(ctx, model);
  if (!ctx.values.json) {
    const first = shapes[0];
    ctx.write(
      `measuring ${what}: about ${first?.promptTokens} prompt tokens and ${first?.maxTokens} answer tokens a request\n`,
    );
  }
  const steps: StepSummary[] = [];
  for (const shape of shapes) steps.push(await runStep(target, shape));
  if (ctx.values.json) printJson(ctx, { target: what, steps });
  else ctx.write(stepsTable(steps));
  // Every request of every step failing is a failed command; some failures are part of a result.
  return steps.every((step) => step.failed === step.requests) ? 1 : 0;
}

export const benchCommands: Record<string, Command> = {
  bench: {
    usage: `${USAGE} [--replica ID | --gateway [--api-key-file F]] [--concurrency LIST] [--requests N] [--prompt-tokens N] [--max-tokens N] [--json]`,
    summary:
      "measure a model: tokens/s, time to first token and latency percentiles per concurrency step (replica key: admin)",
    flags: [
      ...(["replica", "gateway", "api-key-file", "concurrency", "requests"] as const),
      ...(["prompt-tokens", "max-tokens", "json"] as const),
    ],
    takesArguments: true,
    run: bench,
  },
};
