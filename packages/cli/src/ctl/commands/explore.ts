// `llmgw ctl explore [--config FILE]… [--json]`: what fits this fleet now, for the presets and
// catalog models whose architecture the server knows and each config.json given. One row per
// model and GPU class (and per CPU node), then each model's sentences below the table.
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import {
  EXPLORE_CONFIG_CHARS_MAX,
  type ExploreAnswer,
  type ExploreCpuOptionView,
  type ExploreGpuOptionView,
  type ExploreModelView,
} from "@llmgw/api";
import { messageOf } from "@llmgw/domain";
import { CtlError } from "../client";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const HEADERS = ["MODEL", "CLASS", "CARDS", "TP", "EP", "CONTEXT", "VERDICT"];

const VERDICTS: Record<ExploreGpuOptionView["verdict"], string> = {
  fits: "fits",
  shrunk: "fits, context shrunk",
  needs_more_cards: "needs more free cards",
  too_large: "does not fit these cards",
};

function gpuRow(model: ExploreModelView, option: ExploreGpuOptionView): string[] {
  const isPlaced = option.verdict === "fits" || option.verdict === "shrunk";
  return [
    model.name,
    `${option.gpuClass} on ${option.bestNode}`,
    isPlaced ? String(option.cards) : `${option.cards} (${option.cardsFreeOnBestNode} free)`,
    option.cards > 0 ? String(option.tensorParallel) : "-",
    option.expertParallel ? "yes" : "-",
    option.contextTokens > 0 ? String(option.contextTokens) : "-",
    VERDICTS[option.verdict],
  ];
}

function cpuRow(model: ExploreModelView, option: ExploreCpuOptionView): string[] {
  const speed =
    option.tokensPerSecond === undefined
      ? "speed unknown until measured"
      : `about ${option.tokensPerSecond} tokens/s`;
  const verdict = option.fitsMemory ? `fits, ${speed}` : `needs more than ${option.memoryGb} GB`;
  return [model.name, `CPU on ${option.node}`, "-", "-", "-", "-", verdict];
}

/** The table, then for each model what it needs and the sentences of its best plan. */
export function exploreText(answer: ExploreAnswer): string {
  if (answer.models.length === 0)
    return "no model to size: the server knows no preset's architecture here; give --config FILE\n";
  const rows = answer.models.flatMap((model) => [
    ...model.gpu.map((option) => gpuRow(model, option)),
    ...model.cpu.map((option) => cpuRow(model, option)),
  ]);
  const notes = answer.models.flatMap((model) => {
    const lines = [
      ...model.notes.map((note) => note.text),
      ...(model.gpu[0]?.notes ?? []).map((note) => note.text),
      ...(model.needs ? [model.needs.text] : []),
    ];
    const head = `${model.name} (${model.parametersBillions}B parameters, ${model.weightGb} GB of weights):`;
    return ["", head, ...lines.map((line) => `  ${line}`)];
  });
  return `${renderTable(HEADERS, rows)}${notes.join("\n")}\n`;
}

/** `models/Llama-3.1-8B/config.json` → `Llama-3.1-8B`; `qwen3.json` → `qwen3`. */
export function configName(path: string): string {
  const file = basename(path);
  if (file === "config.json") return basename(dirname(resolve(path)));
  return file.replace(/\.json$/i, "");
}

/** The files given with --config, read here so the server never opens a path a client names. */
export async function readConfigs(paths: readonly string[]) {
  return Promise.all(
    paths.map(async (path) => {
      try {
        if ((await stat(path)).size > EXPLORE_CONFIG_CHARS_MAX)
          throw new CtlError(
            `${path} is larger than ${EXPLORE_CONFIG_CHARS_MAX} bytes; a config.json is a few kilobytes`,
          );
        return { name: configName(path), json: await readFile(path, "utf8") };
      } catch (error) {
        if (error instanceof CtlError) throw error;
        throw new CtlError(`cannot read --config ${path}: ${messageOf(error)}`);
      }
    }),
  );
}

async function exploreCommand(ctx: CommandContext): Promise<number> {
  const configs = await readConfigs(ctx.values.config ?? []);
  const answer = await ctx.api.explore.run.mutate({ configs });
  if (ctx.values.json) printJson(ctx, answer);
  else ctx.write(exploreText(answer));
  return 0;
}

export const exploreCommands: Record<string, Command> = {
  explore: {
    usage: "explore [--config FILE]… [--json]",
    summary: "what fits this fleet now: cards, parallelism and context per model and GPU class",
    flags: ["config", "json"],
    run: exploreCommand,
  },
};
