// tools/list for one caller: the tools of each server granted to it, that is on and not taken
// out, filtered by the caller's patterns and named `server.tool`.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerRow } from "@llmgw/db";
import { ADMIN_MCP_SERVER, gatewayToolName, toolGranted } from "@llmgw/domain";
import { ADMIN_TOOLS } from "./admin-tools";
import type { CallerScope, McpGatewayDeps } from "./caller-scope";
import { upstreamTarget } from "./mcp-service";
import type { UpstreamTool } from "./runtime";
import { isServerFailure, listUpstreamTools, upstreamReason } from "./upstream";

export async function listCallerTools(deps: McpGatewayDeps, scope: CallerScope): Promise<Tool[]> {
  const perServer = await Promise.all(
    [...scope.servers.values()].map(async ({ row, patterns }) =>
      (await toolsOf(deps, row))
        .filter((tool) => toolGranted(patterns, tool.name))
        .map((tool) => ({ ...tool, name: gatewayToolName(row.name, tool.name) })),
    ),
  );
  return perServer.flat().sort((a, b) => a.name.localeCompare(b.name));
}

async function toolsOf(deps: McpGatewayDeps, row: McpServerRow): Promise<UpstreamTool[]> {
  if (row.name === ADMIN_MCP_SERVER)
    return ADMIN_TOOLS.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false },
    }));
  const { runtime } = deps;
  const breaker = runtime.breaker(row.name);
  if (!breaker.canTry(runtime.nowMs())) return [];
  const version = row.updatedAt.getTime();
  const cached = runtime.cachedTools(row.name, version);
  if (cached) return cached;
  breaker.onAttempt(runtime.nowMs());
  const target = upstreamTarget(deps, row);
  try {
    const tools = await listUpstreamTools(target);
    breaker.onSuccess();
    runtime.rememberTools(row.name, version, tools);
    return tools;
  } catch (error) {
    if (await isServerFailure(error)) breaker.onFailure(runtime.nowMs());
    else breaker.onSuccess();
    deps.log(`mcp server ${row.name}: listing its tools failed: ${upstreamReason(error, target)}`);
    return [];
  }
}
