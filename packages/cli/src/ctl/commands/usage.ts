// `llmgw ctl usage`: requests and tokens per owner and model over a time range.
import type { UsageReport } from "@llmgw/api";
import { parseDurationSeconds } from "../args";
import { renderTable } from "../table";
import { printJson, type Command } from "./command";

/** `--since 24h` means 24 hours ago; an ISO time is passed through for the server to check. */
export function sinceIso(value: string | undefined, nowMs: number): string | undefined {
  if (value === undefined) return undefined;
  if (/^\d+[smhdw]$/.test(value.trim()))
    return new Date(nowMs - parseDurationSeconds("since", value) * 1_000).toISOString();
  return value;
}

function usageTable(report: UsageReport): string {
  const rows = report.rows.map((r) => [
    r.owner,
    r.model,
    String(r.requests),
    String(r.errors),
    String(r.promptTokens),
    String(r.completionTokens),
    `${Math.round(r.latencyMsAvg)} ms`,
  ]);
  const head = `usage from ${report.since} to ${report.until}\n`;
  if (rows.length === 0) return `${head}no requests in this range\n`;
  return (
    head +
    renderTable(
      ["OWNER", "MODEL", "REQUESTS", "ERRORS", "PROMPT TOKENS", "COMPLETION TOKENS", "AVG LATENCY"],
      rows,
    )
  );
}

export const usageCommands: Record<string, Command> = {
  usage: {
    usage: "usage [--owner O] [--model M] [--since 24h|ISO] [--json]",
    summary: "/v1 requests and tokens per owner and model",
    flags: ["owner", "model", "since", "json"],
    async run(ctx) {
      const report = await ctx.api.usage.query.query({
        owner: ctx.values.owner,
        model: ctx.values.model,
        since: sinceIso(ctx.values.since, ctx.nowMs()),
      });
      if (ctx.values.json) printJson(ctx, report);
      else ctx.write(usageTable(report));
      return 0;
    },
  },
};
