// tools/call for one caller: the grant is checked again here (never trust the list the caller
// saw), then the call goes to llmgw:admin in this process or upstream with the server's sealed
// headers. The outcome feeds the server's breaker and the audit.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ADMIN_MCP_SERVER, splitGatewayToolName, toolGranted, messageOf } from "@llmgw/domain";
import { randomUUID } from "node:crypto";
import { guardToolArgs, guardToolResult } from "../guard/mcp-guard";
import { MCP_FAILURES_TO_OPEN } from "./runtime";
import { runAdminTool } from "./admin-tools";
import { loadSdk } from "./sdk";
import { audit, type CallerScope, type McpGatewayDeps } from "./caller-scope";
import { upstreamTarget } from "./mcp-service";
import { callUpstreamTool, isServerFailure, upstreamReason, type UpstreamTarget } from "./upstream";

const errorResult = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

export async function callTool(
  deps: McpGatewayDeps,
  scope: CallerScope,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const startedMs = deps.runtime.nowMs();
  const elapsed = () => ({ elapsedMs: deps.runtime.nowMs() - startedMs });
  const split = splitGatewayToolName(name);
  const granted = split ? scope.servers.get(split.server) : undefined;
  if (!split || !granted || !toolGranted(granted.patterns, split.tool)) {
    audit(deps, scope.caller, name, "refused", { reason: "not granted" });
    const { ErrorCode, McpError } = await loadSdk();
    throw new McpError(
      ErrorCode.InvalidParams,
      `tool "${name}" is not among the tools granted to ${scope.caller.label}; tools/list shows them`,
    );
  }
  if (split.server === ADMIN_MCP_SERVER) {
    const result = await runAdminTool(deps.services, split.tool, args ?? {});
    audit(deps, scope.caller, name, result.isError ? "tool_error" : "ok", elapsed());
    return result;
  }
  const breaker = deps.runtime.breaker(split.server);
  if (!breaker.canTry(deps.runtime.nowMs())) {
    const seconds = Math.ceil(deps.runtime.outForMs(split.server) / 1_000);
    audit(deps, scope.caller, name, "server_out", elapsed());
    return errorResult(
      `MCP server ${split.server} is out after ${MCP_FAILURES_TO_OPEN} failures in a row; it is tried again in ${seconds} s`,
    );
  }
  breaker.onAttempt(deps.runtime.nowMs());
  let target: UpstreamTarget;
  try {
    target = upstreamTarget(deps, granted.row);
  } catch (error) {
    audit(deps, scope.caller, name, "failed", { reason: "the credential does not open" });
    deps.log(`mcp server ${split.server}: ${messageOf(error)}`);
    return errorResult(`MCP server ${split.server}: its stored credential does not open`);
  }
  return forward(deps, scope, name, split, target, args, elapsed);
}

async function forward(
  deps: McpGatewayDeps,
  scope: CallerScope,
  name: string,
  split: { server: string; tool: string },
  target: UpstreamTarget,
  args: Record<string, unknown> | undefined,
  elapsed: () => { elapsedMs: number },
): Promise<CallToolResult> {
  const breaker = deps.runtime.breaker(split.server);
  const who = { ...scope.caller, requestId: `mcp-${randomUUID()}` };
  const guarded = await guardToolArgs(deps.guard, who, name, args);
  if (!guarded.ok) {
    breaker.onSuccess();
    audit(deps, scope.caller, name, "guard_refused", elapsed());
    return errorResult(guarded.message);
  }
  let result: CallToolResult;
  try {
    result = await callUpstreamTool(target, split.tool, guarded.args);
    breaker.onSuccess();
    audit(deps, scope.caller, name, result.isError ? "tool_error" : "ok", elapsed());
  } catch (error) {
    const reason = upstreamReason(error, target);
    if (!(await isServerFailure(error))) {
      const { McpError } = await loadSdk();
      breaker.onSuccess();
      audit(deps, scope.caller, name, "refused_upstream", { ...elapsed(), reason });
      throw new McpError(
        (error as InstanceType<typeof McpError>).code,
        `${split.server}: ${reason}`,
      );
    }
    breaker.onFailure(deps.runtime.nowMs());
    audit(deps, scope.caller, name, "failed", { ...elapsed(), reason });
    deps.log(`mcp server ${split.server}: ${name} failed: ${reason}`);
    return errorResult(`MCP server ${split.server} failed: ${reason}`);
  }
  return guardToolResult(deps.guard, who, name, result);
}
