// /mcp: one MCP endpoint (streamable HTTP, stateless) in front of every registered server. A
// caller sees exactly the tools granted to its levels, named `server.tool`; a call is checked
// against the grant again, counted against the server's rate for that caller, and proxied with
// the server's own sealed credential. Five failures in a row take a server out for a while.
// Every call is audited by who, which tool, outcome and time; never a header value.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { LLMGW_VERSION, splitGatewayToolName } from "@llmgw/domain";
import { readBody } from "../gateway/request-body";
import { GatewayError } from "../gateway/errors";
import { audit, callerScope, type CallerScope, type McpGatewayDeps } from "./caller-scope";
import { identifyCaller } from "./callers";
import { callTool } from "./mcp-calls";
import { listCallerTools } from "./mcp-list";
import { loadSdk } from "./sdk";

const MCP_BODY_BYTES_MAX = 4 * 1024 * 1024;

export function createMcpGateway(deps: McpGatewayDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "POST")
      return rpcError(
        res,
        405,
        `/mcp takes POST (stateless streamable HTTP), not ${req.method ?? "?"}`,
        null,
        {
          allow: "POST",
        },
      );
    const who = await identifyCaller(deps, req);
    if (!who.ok)
      return rpcError(res, 401, who.why, null, { "www-authenticate": 'Bearer realm="llmgw"' });
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, MCP_BODY_BYTES_MAX)).toString("utf8"));
    } catch (error) {
      const tooLarge = error instanceof GatewayError;
      return rpcError(
        res,
        tooLarge ? 413 : 400,
        tooLarge ? error.message : "the body is not JSON",
        null,
        {},
        -32700,
      );
    }
    const scope = await callerScope(deps, who.caller);
    if (!admitCalls(deps, scope, body, res)) return;
    await serveMcp(deps, scope, req, res, body);
  };
}

/** Counts each tools/call against its server's rate for this caller; answers 429 when over. */
function admitCalls(
  deps: McpGatewayDeps,
  scope: CallerScope,
  body: unknown,
  res: ServerResponse,
): boolean {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages as Array<{
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown };
  }>) {
    if (message?.method !== "tools/call" || typeof message.params?.name !== "string") continue;
    const split = splitGatewayToolName(message.params.name);
    const granted = split ? scope.servers.get(split.server) : undefined;
    if (!split || !granted) continue;
    const rate = granted.row.callsPerMinute;
    const waitSeconds = deps.runtime.admitCall(scope.caller.subject, split.server, rate);
    if (waitSeconds === null) continue;
    audit(deps, scope.caller, message.params.name, "rate_limited", { callsPerMinute: rate });
    rpcError(
      res,
      429,
      `rate limit: ${scope.caller.label} may call ${split.server} ${rate} times a minute; retry in ${waitSeconds} s`,
      (message.id as string | number | undefined) ?? null,
      { "retry-after": String(waitSeconds) },
      -32029,
    );
    return false;
  }
  return true;
}

async function serveMcp(
  deps: McpGatewayDeps,
  scope: CallerScope,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const { CallToolRequestSchema, ListToolsRequestSchema, Server, StreamableHTTPServerTransport } =
    await loadSdk();
  const server = new Server(
    { name: "llmgw", version: LLMGW_VERSION },
    {
      capabilities: { tools: {} },
      instructions: "Tools are named server.tool; each reaches that MCP server through llmgw.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (): Promise<{ tools: Tool[] }> => ({
    tools: await listCallerTools(deps, scope),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> =>
    callTool(deps, scope, request.params.name, request.params.arguments),
  );
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

function rpcError(
  res: ServerResponse,
  status: number,
  message: string,
  id: string | number | null,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res
    .writeHead(status, { ...headers, "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
}
