// An MCP client as an agent would use it against llmgw's /mcp: the official SDK over streamable
// HTTP with the caller's own bearer token.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

async function withMcp<T>(
  url: string,
  token: string,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "llmgw-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

export async function toolNames(url: string, token: string): Promise<string[]> {
  return withMcp(url, token, async (client) =>
    (await client.listTools()).tools.map((t) => t.name).sort(),
  );
}

export async function callTool(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return withMcp(
    url,
    token,
    async (client) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  );
}

export function resultText(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
}
