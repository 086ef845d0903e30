// `ctl engine-build NODE [auto|cu13|cu129|none]`: the GPU engine build a node installs. Without a
// build it shows the one chosen and what the node applies; with one (admin) it stores it and the
// control plane tells the node at once.
import type { NodeView } from "@llmgw/api";
import { required } from "../args";
import { printJson, type Command, type CommandContext } from "./command";

const USAGE = "engine-build NODE [auto|cu13|cu129|none]";

/** Two lines: the choice and who made it, then what the node made of it. */
export function engineBuildText(node: Pick<NodeView, "name" | "engineBuild">): string {
  const { choice, setBy, setAt, applied } = node.engineBuild;
  const who = setBy === null ? "(default; nobody chose)" : `(set by ${setBy} at ${setAt ?? "?"})`;
  const lines = [`node ${node.name}: engine build ${choice} ${who}`];
  if (applied === null)
    lines.push("applied: unknown (the node is not connected, or its agent predates engine builds)");
  else {
    const withheld =
      applied.withheldEngines.length === 0
        ? ""
        : `; not offered: ${applied.withheldEngines.join(", ")}`;
    lines.push(`applied: ${applied.build} (${applied.reason})${withheld}`);
    if (applied.installSource !== "") lines.push(`installs: ${applied.installSource}`);
  }
  return `${lines.join("\n")}\n`;
}

async function engineBuild(ctx: CommandContext): Promise<number> {
  const id = required(ctx.args, 0, "NODE", USAGE);
  const build = ctx.args[1];
  const node =
    build === undefined
      ? await ctx.api.nodes.get.query({ id })
      : await ctx.api.nodes.engineBuild.mutate({ id, build });
  if (ctx.values.json) printJson(ctx, node.engineBuild);
  else ctx.write(engineBuildText(node));
  return 0;
}

export const engineBuildCommands: Record<string, Command> = {
  "engine-build": {
    usage: `${USAGE} [--json]`,
    summary:
      "show or choose (admin) the GPU engine build a node installs: auto picks by its driver (580+: cu13)",
    flags: ["json"],
    takesArguments: true,
    run: engineBuild,
  },
};
