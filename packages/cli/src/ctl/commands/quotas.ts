// `llmgw ctl quota`: what each org, team and project is guaranteed and limited to, what it holds
// now, and (admins) setting and removing a scope's quota. Amounts are checked by the server, which
// names the part it could not read.
import type { QuotaLine, ScopeQuotaView, SetQuotaInput } from "@llmgw/api";
import { required, UsageError, type CtlValues } from "../args";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const QUOTA_USAGE =
  "quota [list] [--json] | set SCOPE [--guarantee AMOUNTS] [--limit AMOUNTS] | remove SCOPE";
const NO_QUOTAS =
  "no scope has a quota or holds anything; set one with `llmgw ctl quota set team:NAME --guarantee gpus=CLASS:N`\n";

function resourceText(resource: string): string {
  return resource === "memory" ? "memory (GiB)" : resource;
}

function amountText(amount: number): string {
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(1);
}

function lineCells(line: QuotaLine): string[] {
  return [
    resourceText(line.resource),
    amountText(line.held),
    amountText(line.guaranteed),
    line.limit === null ? "-" : amountText(line.limit),
    amountText(line.borrowed),
  ];
}

/** One row per scope and resource; a scope at its limit says so on its first row. */
export function quotasTable(views: readonly ScopeQuotaView[]): string {
  const rows = views.flatMap((view) => {
    const scope = view.atLimit ? `${view.scope} (at limit)` : view.scope;
    if (view.lines.length === 0) return [[scope, "-", "0", "0", "-", "0"]];
    return view.lines.map((line, index) => [index === 0 ? scope : "", ...lineCells(line)]);
  });
  return renderTable(["SCOPE", "RESOURCE", "HELD", "GUARANTEED", "LIMIT", "BORROWED"], rows);
}

/** What `quota set` sends: the scope, its guarantee (empty: none) and its limit (null: none). */
export function setQuotaInput(args: string[], values: CtlValues): SetQuotaInput {
  const usage = "quota set SCOPE [--guarantee AMOUNTS] [--limit AMOUNTS]";
  const scope = required(args, 0, "SCOPE", usage);
  const { guarantee, limit } = values;
  if (guarantee === undefined && limit === undefined)
    throw new UsageError(
      `give --guarantee, --limit or both, such as --guarantee gpus=H100-80G:16,cores=64,memory=512GiB; usage: ${usage}`,
    );
  return { scope, guarantee: guarantee ?? "", limit: limit ?? null };
}

function describeQuota(view: ScopeQuotaView): string {
  const quota = view.quota;
  if (!quota) return `${view.scope} has no quota\n`;
  const guarantee = quota.guaranteeText === "" ? "nothing" : quota.guaranteeText;
  const limit = quota.limitText === null ? "no limit" : `a limit of ${quota.limitText}`;
  return `${view.scope} is guaranteed ${guarantee}, with ${limit}\n`;
}

async function quotaCommand(ctx: CommandContext): Promise<number> {
  const [verb = "list", ...rest] = ctx.args;
  switch (verb) {
    case "list": {
      const views = await ctx.api.quotas.list.query();
      if (ctx.values.json) printJson(ctx, views);
      else ctx.write(views.length === 0 ? NO_QUOTAS : quotasTable(views));
      return 0;
    }
    case "set": {
      const view = await ctx.api.quotas.set.mutate(setQuotaInput(rest, ctx.values));
      if (ctx.values.json) printJson(ctx, view);
      else ctx.write(describeQuota(view));
      return 0;
    }
    case "remove":
    case "rm": {
      const scope = required(rest, 0, "SCOPE", "quota remove SCOPE");
      await ctx.api.quotas.remove.mutate({ scope });
      ctx.write(`${scope} has no quota now: no guarantee, no limit\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown quota command "${verb}"; usage: ${QUOTA_USAGE}`);
  }
}

export const quotaCommands: Record<string, Command> = {
  quota: {
    usage: QUOTA_USAGE,
    summary: "what each org, team and project is guaranteed, may hold, and holds now",
    flags: ["json", "guarantee", "limit"],
    takesArguments: true,
    run: quotaCommand,
  },
};
