// `model gpus|context|resources`: the sizing actions. Each sends one change; the server refuses
// what the fleet or the cards cannot hold, naming what would, and says how the replicas restart.
import type { ResizeResultView } from "@llmgw/api";
import { parseQuotaAmounts } from "@llmgw/domain";
import { parseCountFlag, required, UsageError, type CtlValues } from "../args";
import { printJson, type CommandContext } from "./command";

export const SIZING_USAGE =
  "model gpus MODEL N [--profile P] [--in-place] | model context MODEL TOKENS [--slots N] | model resources MODEL --cores N --memory 8GiB";

function wholeNumber(what: string, text: string, usage: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`${what} is a whole number of at least 1, not "${text}"; usage: ${usage}`);
  return value;
}

function common(values: CtlValues) {
  return {
    ...(values.profile === undefined ? {} : { profile: values.profile }),
    inPlace: values["in-place"] === true,
  };
}

export function gpusInput(args: string[], values: CtlValues) {
  const usage = "model gpus MODEL N [--profile P] [--in-place]";
  const name = required(args, 0, "MODEL", usage);
  const gpus = wholeNumber("N (cards)", required(args, 1, "N (cards)", usage), usage);
  return { name, gpus, ...common(values) };
}

export function contextInput(args: string[], values: CtlValues) {
  const usage = "model context MODEL TOKENS [--slots N] [--profile P] [--in-place]";
  const name = required(args, 0, "MODEL", usage);
  const contextTokens = wholeNumber("TOKENS", required(args, 1, "TOKENS", usage), usage);
  const slots = parseCountFlag("slots", values.slots);
  return { name, contextTokens, ...(slots === undefined ? {} : { slots }), ...common(values) };
}

/** Memory as the quota commands read it: GiB, TiB or GB (read as GiB, as profiles' memory_gb). */
export function resourcesInput(args: string[], values: CtlValues) {
  const usage = "model resources MODEL --cores N --memory 8GiB [--profile P] [--in-place]";
  const name = required(args, 0, "MODEL", usage);
  if (values.cores === undefined || values.memory === undefined)
    throw new UsageError(`give both --cores and --memory; usage: ${usage}`);
  const cpuCores = Number(values.cores);
  if (!Number.isFinite(cpuCores) || cpuCores < 0)
    throw new UsageError(`--cores is a number 0 or more, not "${values.cores}"`);
  const memory = parseQuotaAmounts(`memory=${values.memory}`);
  if (!memory.ok || memory.amounts.memoryGb === undefined)
    throw new UsageError(`--memory is a size such as 8GiB or 1TiB, not "${values.memory}"`);
  return { name, cpuCores, memoryGb: memory.amounts.memoryGb, ...common(values) };
}

function answerText(result: ResizeResultView): string {
  const head = result.changed
    ? `model "${result.model.name}" is at revision ${result.model.revision}\n`
    : `model "${result.model.name}" already had this size; nothing restarts\n`;
  return head + result.notes.map((note) => `  ${note.text}\n`).join("");
}

export async function sizingCommand(verb: string, ctx: CommandContext): Promise<number> {
  const { api, args, values } = ctx;
  const result =
    verb === "gpus"
      ? await api.models.setGpus.mutate(gpusInput(args, values))
      : verb === "context"
        ? await api.models.setContext.mutate(contextInput(args, values))
        : await api.models.setResources.mutate(resourcesInput(args, values));
  if (values.json) printJson(ctx, result);
  else ctx.write(answerText(result));
  return 0;
}
