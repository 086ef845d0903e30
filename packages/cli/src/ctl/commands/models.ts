// The catalog: list, show, add from a file or preset, remove, retry, fallbacks, owner, placement.
import { parseFallbacks, required, UsageError, type CtlValues } from "../args";
import { explain } from "../client";
import { classifyAddArgument, readDefinitions } from "../model-file";
import { readSecretFile } from "../secret-file";
import { explanationText, modelDetail, modelsTable, presetsTable } from "../views/models-view";
import { printJson, type Command, type CommandContext } from "./command";
import { ADAPTERS_USAGE, adaptersCommand } from "./model-adapters";
import { SIZING_USAGE, sizingCommand } from "./model-sizing";

const NO_MODELS =
  "the catalog is empty; add a model with `llmgw ctl model add FILE|PRESET` (see `llmgw ctl presets`)\n";

async function addModels(ctx: CommandContext, argument: string): Promise<number> {
  const source = classifyAddArgument(argument);
  const inputs =
    source.kind === "preset"
      ? [{ label: `preset "${source.name}"`, input: { preset: source.name } }]
      : readDefinitions(source.path).map((definition, index) => ({
          label:
            typeof definition.name === "string"
              ? `model "${definition.name}"`
              : `definition ${index + 1} of ${source.path}`,
          input: { definition },
        }));
  let refused = 0;
  for (const { label, input } of inputs) {
    try {
      const model = await ctx.api.models.add.mutate(input);
      ctx.write(
        `${label}: model "${model.name}" is in the catalog at revision ${model.revision}\n`,
      );
    } catch (error) {
      // Every definition in the file is tried, so one bad entry does not hide the others' fate.
      refused += 1;
      ctx.writeError(`${label}: ${explain(error, ctx.target.server)}\n`);
    }
  }
  if (refused > 0 && inputs.length > 1)
    ctx.writeError(`${refused} of ${inputs.length} definitions were refused\n`);
  return refused > 0 ? 1 : 0;
}

const MODEL_USAGE = `model get NAME [--json] | add FILE|PRESET | remove NAME | fallbacks MODEL A,B | owner MODEL (OWNER | --clear) | key set MODEL --key-file F | key clear MODEL | presets | ${SIZING_USAGE} | ${ADAPTERS_USAGE}`;

async function modelSubcommand(ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = ctx.args;
  const sub = { ...ctx, args: rest };
  switch (verb) {
    case "get":
    case "show": {
      const model = await ctx.api.models.get.query({
        name: required(rest, 0, "NAME", "model get NAME"),
      });
      if (ctx.values.json) printJson(ctx, model);
      else ctx.write(modelDetail(model));
      return 0;
    }
    case "add":
      return addModels(ctx, required(rest, 0, "FILE or PRESET", "model add FILE|PRESET"));
    case "remove":
    case "rm": {
      const name = required(rest, 0, "NAME", "model remove NAME");
      await ctx.api.models.remove.mutate({ name });
      ctx.write(`model "${name}" removed; its replicas are being stopped\n`);
      return 0;
    }
    case "fallbacks":
      return setFallbacks(sub);
    case "owner":
      return setOwner(sub);
    case "key":
      return modelKey(sub);
    case "retry":
      return modelCommands.retry.run(sub);
    case "presets":
      return modelCommands.presets.run(sub);
    case "adapters":
      return adaptersCommand(sub);
    case "gpus":
    case "context":
    case "resources":
      return sizingCommand(verb, sub);
    default:
      throw new UsageError(
        verb ? `unknown model command "${verb}"; usage: ${MODEL_USAGE}` : `usage: ${MODEL_USAGE}`,
      );
  }
}

async function setFallbacks(ctx: CommandContext): Promise<number> {
  const usage = "model fallbacks MODEL A,B (or none)";
  const name = required(ctx.args, 0, "MODEL", usage);
  const fallbacks = parseFallbacks(required(ctx.args, 1, "the fallback list", usage));
  const model = await ctx.api.models.setFallbacks.mutate({ name, fallbacks });
  ctx.write(
    model.fallbacks.length > 0
      ? `model "${name}" falls back to ${model.fallbacks.join(", ")} when the cluster has no room\n`
      : `model "${name}" has no fallbacks\n`,
  );
  return 0;
}

const OWNER_USAGE = "model owner MODEL (OWNER | --clear)";

/** What `model owner` asks for: the model and its new owner, or null to clear it. */
export function ownerInput(
  args: string[],
  values: CtlValues,
): { model: string; owner: string | null } {
  const model = required(args, 0, "MODEL", OWNER_USAGE);
  const owner = args[1];
  if (values.clear === true && owner !== undefined)
    throw new UsageError(`give an owner or --clear, not both; usage: ${OWNER_USAGE}`);
  if (values.clear === true) return { model, owner: null };
  if (owner === undefined)
    throw new UsageError(
      `give the owner (org:NAME, team:NAME or project:NAME) or --clear; usage: ${OWNER_USAGE}`,
    );
  return { model, owner };
}

/** Whose quota the model's replicas count against; changing it restarts none of them. */
async function setOwner(ctx: CommandContext): Promise<number> {
  const input = ownerInput(ctx.args, ctx.values);
  const model = await ctx.api.models.setOwner.mutate(input);
  ctx.write(
    model.owner === null
      ? `model "${model.name}" has no owner now; its replicas count against no scope\n`
      : `model "${model.name}" is owned by ${model.owner}; its replicas keep running and count against it\n`,
  );
  return 0;
}

/**
 * An external model's provider key, read from a file here and sealed by the server; it is never
 * taken on the command line nor shown again.
 */
async function modelKey(ctx: CommandContext): Promise<number> {
  const usage = "model key set MODEL --key-file F | model key clear MODEL";
  const [verb] = ctx.args;
  if (verb !== "set" && verb !== "clear")
    throw new UsageError(
      verb ? `unknown model key command "${verb}"; usage: ${usage}` : `usage: ${usage}`,
    );
  const name = required(ctx.args, 1, "MODEL", usage);
  if (verb === "set") {
    const file = ctx.values["key-file"];
    if (!file)
      throw new UsageError(`give the file holding the key with --key-file; usage: ${usage}`);
    await ctx.api.models.setKey.mutate({ name, key: readSecretFile("key-file", file) });
    ctx.write(`model "${name}": its provider key is set, kept sealed in the store\n`);
    return 0;
  }
  const model = await ctx.api.models.setKey.mutate({ name, key: null });
  ctx.write(
    model.externalKey === "files"
      ? `model "${name}": its sealed key is cleared; its key files are used again\n`
      : `model "${name}": its sealed key is cleared; it has no key until one is set\n`,
  );
  return 0;
}

// `satisfies` keeps the command names in the type, so `model retry` can call `retry` directly.
export const modelCommands = {
  models: {
    usage: "models [--json]",
    summary: "the catalog with each model's state, ready/desired replicas and last error",
    flags: ["json"],
    async run(ctx) {
      const models = await ctx.api.models.list.query();
      if (ctx.values.json) printJson(ctx, models);
      else ctx.write(models.length === 0 ? NO_MODELS : modelsTable(models));
      return 0;
    },
  },
  model: {
    usage: MODEL_USAGE,
    summary:
      "show, add, remove a model, set its fallbacks, its owner, an external model's key, its cards, context or resources",
    flags: ["json", "key-file", "clear", "profile", "in-place", "slots", "cores", "memory"],
    takesArguments: true,
    run: modelSubcommand,
  },
  retry: {
    usage: "retry MODEL",
    summary: "clear a parked model's failures so it is placed again",
    flags: [],
    takesArguments: true,
    async run(ctx) {
      const model = await ctx.api.models.retry.mutate({
        name: required(ctx.args, 0, "MODEL", "retry MODEL"),
      });
      ctx.write(
        `model "${model.name}": failures cleared; it will be placed again (now ${model.state})\n`,
      );
      return 0;
    },
  },
  "explain-placement": {
    usage: "explain-placement MODEL [--json]",
    summary: "why each node can or cannot take a replica",
    flags: ["json"],
    takesArguments: true,
    async run(ctx) {
      const name = required(ctx.args, 0, "MODEL", "explain-placement MODEL");
      const explanation = await ctx.api.models.explainPlacement.query({ name });
      if (ctx.values.json) printJson(ctx, explanation);
      else ctx.write(explanationText(explanation));
      return 0;
    },
  },
  presets: {
    usage: "presets [--json]",
    summary: "definitions shipped with llmgw, and whether the fleet can place them now",
    flags: ["json"],
    async run(ctx) {
      const presets = await ctx.api.models.presets.query();
      if (ctx.values.json) printJson(ctx, presets);
      else ctx.write(presetsTable(presets));
      return 0;
    },
  },
} satisfies Record<string, Command>;
