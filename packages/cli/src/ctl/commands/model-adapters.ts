// `model adapters MODEL list|add NAME SOURCE [--rank N]|remove NAME`: a model's LoRA adapters.
// The change is sent as the model's whole definition, so the server checks it with the same
// schema as any other (pickle, engine limits) and rolls the replicas out one at a time.
import { parseCountFlag, required, UsageError, type CtlValues } from "../args";
import { explain } from "../client";
import { renderTable } from "../table";
import { printJson, type CommandContext } from "./command";

export const ADAPTERS_USAGE =
  "model adapters MODEL list | add NAME SOURCE [--rank N] | remove NAME";

interface AdapterEntry {
  name: string;
  source: string;
  rank?: number;
}

function adaptersOf(definition: Record<string, unknown>): AdapterEntry[] {
  return Array.isArray(definition.adapters) ? (definition.adapters as AdapterEntry[]) : [];
}

/** The adapters the definition will list after `add` or `remove`; refuses what makes no sense. */
export function changedAdapters(
  model: string,
  current: readonly AdapterEntry[],
  args: string[],
  values: CtlValues,
): AdapterEntry[] {
  const [verb] = args;
  if (verb === "add") {
    const name = required(args, 1, "NAME", ADAPTERS_USAGE);
    const source = required(args, 2, "SOURCE", ADAPTERS_USAGE);
    if (current.some((adapter) => adapter.name === name))
      throw new UsageError(
        `model "${model}" already has adapter "${name}"; remove it first to change its source`,
      );
    const rank = parseCountFlag("rank", values.rank);
    return [...current, { name, source, ...(rank === undefined ? {} : { rank }) }];
  }
  if (verb === "remove" || verb === "rm") {
    const name = required(args, 1, "NAME", ADAPTERS_USAGE);
    if (!current.some((adapter) => adapter.name === name))
      throw new UsageError(
        `model "${model}" has no adapter "${name}"; it has ${current.map((a) => a.name).join(", ") || "none"}`,
      );
    return current.filter((adapter) => adapter.name !== name);
  }
  throw new UsageError(
    verb
      ? `unknown adapters command "${verb}"; usage: ${ADAPTERS_USAGE}`
      : `usage: ${ADAPTERS_USAGE}`,
  );
}

export function adaptersTable(model: string, adapters: readonly AdapterEntry[]): string {
  if (adapters.length === 0)
    return `model "${model}" has no adapters; add one with \`llmgw ctl model adapters ${model} add NAME SOURCE\`\n`;
  const rows = adapters.map((adapter) => [
    `${model}:${adapter.name}`,
    adapter.source,
    adapter.rank === undefined ? "-" : String(adapter.rank),
  ]);
  return renderTable(["ASK FOR", "SOURCE", "RANK"], rows);
}

export async function adaptersCommand(ctx: CommandContext): Promise<number> {
  const name = required(ctx.args, 0, "MODEL", ADAPTERS_USAGE);
  const args = ctx.args.slice(1);
  const view = await ctx.api.models.get.query({ name });
  const current = adaptersOf(view.definition);
  if (args[0] === undefined || args[0] === "list") {
    if (ctx.values.json) printJson(ctx, current);
    else ctx.write(adaptersTable(name, current));
    return 0;
  }
  const adapters = changedAdapters(name, current, args, ctx.values);
  try {
    const model = await ctx.api.models.add.mutate({
      definition: { ...view.definition, adapters },
    });
    ctx.write(
      `model "${name}" lists ${adapters.length} adapter(s) at revision ${model.revision}; its replicas restart one at a time\n`,
    );
    return 0;
  } catch (error) {
    ctx.writeError(`model "${name}": ${explain(error, ctx.target.server)}\n`);
    return 1;
  }
}
