// Reaching an upstream MCP server over streamable HTTP with the official SDK client. Each
// operation opens a session, does its work and ends the session. Only the server's own headers
// (sealed ones opened just here) are sent; a redirect is refused so no credential follows it
// to another host. The address is judged by the outbound guard before each operation, and every
// connection goes through the guarded agent, so a name that resolves inside is refused too.
import { LLMGW_VERSION, messageOf } from "@llmgw/domain";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fetch as undiciFetch, type Agent, type RequestInit as UndiciRequestInit } from "undici";
import { createGuardedAgent } from "../outbound/guarded-agent";
import { MCP_PRIVATE_HINT, mcpAddressRefusal } from "./address";
import type { UpstreamTool } from "./runtime";
import { loadSdk } from "./sdk";

export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  isPrivateAllowed: boolean;
}

const CLIENT_INFO = { name: "llmgw-mcp-gateway", version: LLMGW_VERSION };

function guardedFetch(agent: Agent): FetchLike {
  return (input, init) =>
    undiciFetch(input, {
      ...(init as UndiciRequestInit),
      redirect: "error",
      dispatcher: agent,
    });
}

async function withUpstream<T>(
  target: UpstreamTarget,
  work: (client: Client, options: { timeout: number }) => Promise<T>,
): Promise<T> {
  // An address stored before the guard tightened is judged again here, before anything is sent.
  const refusal = mcpAddressRefusal(target.url, target.isPrivateAllowed);
  if (refusal) throw new Error(refusal);
  const url = new URL(target.url);
  const agent = createGuardedAgent({
    allowPrivate: target.isPrivateAllowed,
    who: "MCP servers",
    hint: target.isPrivateAllowed ? "" : `; ${MCP_PRIVATE_HINT}`,
    connections: 4,
  });
  const sdk = await loadSdk();
  const transport = new sdk.StreamableHTTPClientTransport(url, {
    requestInit: { headers: target.headers },
    fetch: guardedFetch(agent),
  });
  const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
  const options = { timeout: target.timeoutMs };
  try {
    await client.connect(transport, options);
    return await work(client, options);
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
    await agent.destroy().catch(() => undefined);
  }
}

export async function listUpstreamTools(target: UpstreamTarget): Promise<UpstreamTool[]> {
  return withUpstream(target, async (client, options) => {
    const tools: UpstreamTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, options);
      tools.push(...(page.tools as UpstreamTool[]));
      cursor = page.nextCursor;
    } while (cursor && tools.length < 10_000);
    return tools;
  });
}

export async function callUpstreamTool(
  target: UpstreamTarget,
  tool: string,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  return withUpstream(
    target,
    async (client, options) =>
      (await client.callTool(
        { name: tool, arguments: args },
        undefined,
        options,
      )) as CallToolResult,
  );
}

/**
 * Whether an error is the server's fault (it counts toward taking it out): no connection, an
 * HTTP failure, a timeout or a dropped session. A JSON-RPC refusal of the request itself
 * (unknown tool, bad arguments) is the caller's, like a 4xx.
 */
export async function isServerFailure(error: unknown): Promise<boolean> {
  const { ErrorCode, McpError } = await loadSdk();
  if (!(error instanceof McpError)) return true;
  return error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ConnectionClosed;
}

/**
 * A short reason for an upstream error. An upstream could echo a header back in its error body;
 * every header value (and a bearer token on its own) is cut out before the reason is shown,
 * logged or audited.
 */
export function upstreamReason(error: unknown, target: UpstreamTarget): string {
  const message = messageOf(error);
  const cause =
    error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  let reason = `${message}${cause}`;
  for (const value of Object.values(target.headers)) {
    for (const secret of [value, value.replace(/^Bearer\s+/i, "")])
      if (secret.length >= 4) reason = reason.split(secret).join("[sealed]");
  }
  return reason.slice(0, 500);
}
