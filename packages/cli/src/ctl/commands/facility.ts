// Where nodes stand in the building and what operators hold there: `label`, `facility`, `node`.
import { parseLabelEdit } from "@llmgw/domain";
import { required, UsageError } from "../args";
import { printJson, type Command, type CommandContext } from "./command";

const LABEL_USAGE = "label NODE key=value… [key-…]";

/** The words after NODE as the API's edit; every bad word is named at once. */
export function labelInput(args: string[]): {
  id: string;
  set: Record<string, string>;
  remove: string[];
} {
  const id = required(args, 0, "NODE", LABEL_USAGE);
  const parsed = parseLabelEdit(args.slice(1));
  if (!parsed.ok) throw new UsageError(`${parsed.errors.join("; ")}; usage: ${LABEL_USAGE}`);
  return { id, ...parsed.edit };
}

async function label(ctx: CommandContext): Promise<number> {
  const node = await ctx.api.nodes.label.mutate(labelInput(ctx.args));
  if (ctx.values.json) {
    printJson(ctx, node);
    return 0;
  }
  const labels = Object.entries(node.labels)
    .map(([key, value]) => `${key}=${value}${key in node.storedLabels ? "" : " (agent)"}`)
    .join(", ");
  ctx.write(`node ${node.name} labels: ${labels === "" ? "none" : labels}\n`);
  return 0;
}

export const facilityCommands: Record<string, Command> = {
  label: {
    usage: `${LABEL_USAGE} [--json]`,
    summary:
      "set labels in the store (winning over the agent's), such as llmgw.io/rack=r12; key- removes",
    flags: ["json"],
    takesArguments: true,
    run: label,
  },
};
