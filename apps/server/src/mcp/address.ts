// Where an MCP server may be, as the one outbound guard (@llmgw/domain's checkOutboundUrl) says:
// http(s) only, no user and password in the address (the credential belongs in a sealed header),
// and only global unicast addresses unless LLMGW_MCP_ALLOW_PRIVATE=1. Names are judged again by
// address on every connection (upstream.ts connects through the guarded agent).
import { ServiceError } from "@llmgw/api";
import { checkOutboundUrl } from "@llmgw/domain";

export const MCP_PRIVATE_HINT =
  "MCP servers on private, loopback or link-local addresses need LLMGW_MCP_ALLOW_PRIVATE=1";

/** The refusal of an address, in the words an operator acts on; null when it may be called. */
export function mcpAddressRefusal(text: string, isPrivateAllowed: boolean): string | null {
  const check = checkOutboundUrl(text, isPrivateAllowed);
  if (check.ok) return null;
  switch (check.kind) {
    case "not-url":
      return `address "${text}" is not a URL; give one like https://mcp.example.com/mcp`;
    case "scheme":
      return `${check.why}: MCP servers are reached over streamable HTTP`;
    case "credentials": {
      // The address is shown without its user and password, never repeating them.
      const url = new URL(text);
      return `address "${url.host}${url.pathname}" carries a user and password; put the credential in a header instead (--bearer-file or --secret-file), where it is kept sealed`;
    }
    case "address":
      return isPrivateAllowed ? check.why : `${check.why}; ${MCP_PRIVATE_HINT}`;
  }
}

/** Checks an address as written; answers it parsed. */
export function checkMcpAddress(text: string, isPrivateAllowed: boolean): URL {
  const refusal = mcpAddressRefusal(text, isPrivateAllowed);
  if (refusal) throw new ServiceError("invalid", refusal);
  return new URL(text);
}
