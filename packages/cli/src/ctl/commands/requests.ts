// `llmgw ctl requests failed`: the failed /v1 requests one by one, newest first, each with the node
// it ran on and the `llmgw ctl logs` line that finds its lines there.
import type { FailedRequest, FailedRequestsInput, FailedRequestsPage } from "@llmgw/api";
import { parseCountFlag, UsageError } from "../args";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";
import { sinceIso } from "./usage";

const REQUESTS_USAGE = "requests failed [--model M] [--since 1h|ISO] [--limit N] [--json]";

const NO_NODE_WORDS: Record<NonNullable<FailedRequest["noNodeReason"]>, string> = {
  "no-replica": "refused before any replica was reached",
  external: "answered by an external provider",
  "replica-unknown": "its replica is gone and its placement is no longer recorded",
  "node-removed": "its node has been removed",
};

export function failedInput(values: CommandContext["values"], nowMs: number): FailedRequestsInput {
  return {
    model: values.model,
    since: sinceIso(values.since, nowMs),
    limit: parseCountFlag("limit", values.limit) ?? 50,
  };
}

/** Where to look next: the `ctl logs` command for the request, or why there is none. */
export function logsHint(request: FailedRequest): string {
  if (request.noNodeReason !== null) return `no node log: ${NO_NODE_WORDS[request.noNodeReason]}`;
  return `llmgw ctl logs ${request.nodeName ?? request.nodeId ?? ""} --request ${request.requestId}`;
}

export function failedTable(page: FailedRequestsPage): string {
  const head = `failed requests from ${page.since} to ${page.until}, newest first\n`;
  if (page.requests.length === 0) return `${head}no failed requests in this range\n`;
  const rows = page.requests.map((r) => [
    r.at,
    r.model,
    // A stream cut after its 200 shows the code of the error event that ended it.
    r.errorCode === null ? String(r.status) : `${r.status} ${r.errorCode}`,
    r.keyPrefix === null ? `(key gone) ${r.owner}` : `llmgw_${r.keyPrefix}_…`,
    r.requestId,
    r.replicaId === null ? "-" : `${r.replicaId}${r.isReplicaGone ? " (gone)" : ""}`,
    r.nodeName ?? r.nodeId ?? "-",
  ]);
  const table = renderTable(["TIME", "MODEL", "STATUS", "KEY", "REQUEST", "REPLICA", "NODE"], rows);
  const hints = page.requests.map((r) => `  ${r.requestId}: ${logsHint(r)}`).join("\n");
  const more =
    page.nextCursor === null ? "" : "\nmore are older: narrow --since or raise --limit\n";
  return `${head}${table}\nto see a request's lines on its node:\n${hints}\n${more}`;
}

export const requestCommands: Record<string, Command> = {
  requests: {
    usage: REQUESTS_USAGE,
    summary:
      "failed /v1 requests, newest first, with the node each ran on and how to see its lines",
    flags: ["model", "since", "limit", "json"],
    takesArguments: true,
    async run(ctx) {
      const [verb, ...rest] = ctx.args;
      if (verb !== "failed" || rest.length > 0)
        throw new UsageError(
          `${verb === undefined ? "a requests command is missing" : `unknown requests command "${ctx.args.join(" ")}"`}; usage: ${REQUESTS_USAGE}`,
        );
      const page = await ctx.api.usage.failed.query(failedInput(ctx.values, ctx.nowMs()));
      if (ctx.values.json) printJson(ctx, page);
      else ctx.write(failedTable(page));
      return 0;
    },
  },
};
