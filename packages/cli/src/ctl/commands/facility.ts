// Where nodes stand in the building and what operators hold there: `label`, `facility`, `node`.
import type { FacilityView } from "@llmgw/api";
import { parseLabelEdit } from "@llmgw/domain";
import { required, UsageError } from "../args";
import { renderTable } from "../table";
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

const FACILITY_USAGE = "facility [list] | hold KIND=VALUE [--drain] | release KIND=VALUE";
const NODE_USAGE = "node cordon|drain|uncordon NODE";

/** One row per domain some node names: its nodes, cards, measured power and hold. */
export function facilityTable(view: FacilityView): string {
  const rows = view.domains.map((domain) => [
    domain.domain,
    domain.nodes.join(","),
    String(domain.cards),
    domain.powerWatts === null ? "-" : `${Math.round(domain.powerWatts)} W`,
    domain.hold === null
      ? "-"
      : `held by ${domain.hold.heldBy}${domain.hold.isDraining ? ", draining" : ""}`,
  ]);
  const named = new Set(view.domains.map((domain) => domain.domain));
  // A hold on a domain no node names now still keeps new nodes there empty: it is shown too.
  for (const hold of view.holds)
    if (!named.has(hold.domain))
      rows.push([
        hold.domain,
        "-",
        "0",
        "-",
        `held by ${hold.heldBy}${hold.isDraining ? ", draining" : ""}`,
      ]);
  if (rows.length === 0) return "no node names a facility domain; see llmgw ctl label\n";
  return renderTable(["DOMAIN", "NODES", "CARDS", "POWER", "HOLD"], rows);
}

async function facility(ctx: CommandContext): Promise<number> {
  const [verb = "list"] = ctx.args;
  if (verb === "list") {
    const view = await ctx.api.facility.list.query();
    if (ctx.values.json) printJson(ctx, view);
    else ctx.write(facilityTable(view));
    return 0;
  }
  if (verb !== "hold" && verb !== "release")
    throw new UsageError(`unknown facility command "${verb}"; usage: ${FACILITY_USAGE}`);
  const target = required(ctx.args, 1, "KIND=VALUE", FACILITY_USAGE);
  if (verb === "release") {
    await ctx.api.facility.release.mutate({ domain: target });
    ctx.write(`${target} is released; replicas may be placed there again\n`);
    return 0;
  }
  const hold = await ctx.api.facility.hold.mutate({
    domain: target,
    drain: ctx.values.drain === true,
  });
  ctx.write(
    hold.isDraining
      ? `${hold.domain} is held and draining: each replica there stops once its replacement elsewhere is ready\n`
      : `${hold.domain} is held: nothing new is placed there\n`,
  );
  return 0;
}

const CORDON_STATES = { cordon: "cordoned", drain: "draining", uncordon: null } as const;

async function nodeCommand(ctx: CommandContext): Promise<number> {
  const [verb] = ctx.args;
  if (verb !== "cordon" && verb !== "drain" && verb !== "uncordon")
    throw new UsageError(`unknown node command "${verb ?? ""}"; usage: ${NODE_USAGE}`);
  const id = required(ctx.args, 1, "NODE", NODE_USAGE);
  const node = await ctx.api.nodes.cordon.mutate({ id, state: CORDON_STATES[verb] });
  const said = {
    cordoned: "is cordoned: nothing new is placed on it",
    draining: "is draining: each replica stops once its replacement elsewhere is ready",
  };
  ctx.write(
    `node ${node.name} ${node.cordon === null ? "takes replicas again" : said[node.cordon]}\n`,
  );
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
  facility: {
    usage: `${FACILITY_USAGE} [--json]`,
    summary: "facility domains with nodes, cards, power and holds; hold (admin) keeps replicas out",
    flags: ["json", "drain"],
    takesArguments: true,
    run: facility,
  },
  node: {
    usage: NODE_USAGE,
    summary:
      "cordon a node (nothing new placed), drain it (replicas moved off with surge) or uncordon",
    flags: [],
    takesArguments: true,
    run: nodeCommand,
  },
};
