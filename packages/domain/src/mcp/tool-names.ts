// How the gateway names a tool to its callers: `server.tool`. Server names hold no dot, so the
// first dot splits the two; tool names may hold dots of their own.

export const ADMIN_MCP_SERVER = "llmgw:admin";
export const MCP_SERVER_NAME_PATTERN = /^(?:[a-z0-9][a-z0-9_-]{0,62}|llmgw:admin)$/;
export const MCP_TOOL_PATTERN = /^[A-Za-z0-9_*/-][A-Za-z0-9._*/-]{0,127}$/;

export function gatewayToolName(server: string, tool: string): string {
  return `${server}.${tool}`;
}

export function splitGatewayToolName(name: string): { server: string; tool: string } | null {
  const dot = name.indexOf(".");
  if (dot <= 0 || dot === name.length - 1) return null;
  return { server: name.slice(0, dot), tool: name.slice(dot + 1) };
}
