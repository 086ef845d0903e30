// What one /mcp request may reach: the caller's servers with the tool patterns granted on each,
// and the audit line every call leaves. The gateway, its tool list and its calls all share these,
// so they live apart from the gateway's request handling (which imports the list and the calls).
import type { ApiServices } from "@llmgw/api";
import { auditLog, mcpGrants, mcpServers, type McpServerRow } from "@llmgw/db";
import { effectiveGrant, messageOf } from "@llmgw/domain";
import type { Guard } from "../guard/guard";
import type { CallerDeps, McpCaller } from "./callers";
import type { McpServiceDeps } from "./mcp-service";

export interface McpGatewayDeps extends McpServiceDeps, CallerDeps {
  services: ApiServices;
  guard: Guard;
  log(line: string): void;
}

/** A caller's view of the servers for one request: rows and the tool patterns granted on each. */
export interface CallerScope {
  caller: McpCaller;
  servers: Map<string, { row: McpServerRow; patterns: readonly string[] }>;
}

export async function callerScope(deps: McpGatewayDeps, caller: McpCaller): Promise<CallerScope> {
  const [rows, grants] = await Promise.all([
    deps.db.select().from(mcpServers),
    deps.db.select().from(mcpGrants),
  ]);
  const servers: CallerScope["servers"] = new Map();
  for (const row of rows) {
    if (!row.isEnabled) continue;
    const lists = new Map(
      grants.filter((g) => g.server === row.name).map((g) => [g.subject, g.tools]),
    );
    const patterns = effectiveGrant(caller.levels, lists).tools;
    if (patterns.length > 0) servers.set(row.name, { row, patterns });
  }
  return { caller, servers };
}

export function audit(
  deps: McpGatewayDeps,
  caller: McpCaller,
  tool: string,
  outcome: string,
  details: Record<string, unknown> = {},
): void {
  deps.db
    .insert(auditLog)
    .values({
      at: new Date(deps.runtime.nowMs()),
      actor: caller.subject,
      action: "mcp.call",
      target: tool,
      details: { caller: caller.label, outcome, ...details },
    })
    .catch((error: unknown) => deps.log(`mcp: could not audit a call: ${messageOf(error)}`));
}
