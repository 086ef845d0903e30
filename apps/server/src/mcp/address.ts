// Where an MCP server may be, as the one outbound guard (@llmgw/domain's checkOutboundUrl) says:
// http(s) only, no user and password in the address (the credential belongs in a sealed header),
// and only global unicast addresses unless LLMGW_MCP_ALLOW_PRIVATE=1. Names are judged again by
// address on every connection (upstream.ts connects through the guarded agent).
import { ServiceError, type RefusalInit } from "@llmgw/api";
import { checkOutboundUrl } from "@llmgw/domain";

export const MCP_PRIVATE_HINT =
  "MCP servers on private, loopback or link-local addresses need LLMGW_MCP_ALLOW_PRIVATE=1";

interface AddressRefusal {
  message: string;
  refusal: RefusalInit;
}

/** The refusal of an address, in the words an operator acts on; null when it may be called. */
function refusalOf(text: string, isPrivateAllowed: boolean): AddressRefusal | null {
  const check = checkOutboundUrl(text, isPrivateAllowed);
  if (check.ok) return null;
  const address = { address: text };
  switch (check.kind) {
    case "not-url":
      return {
        message: `address "${text}" is not a URL; give one like https://mcp.example.com/mcp`,
        refusal: { code: "mcp.address_not_url", params: address },
      };
    case "scheme":
      return {
        message: `${check.why}: MCP servers are reached over streamable HTTP`,
        refusal: { code: "mcp.address_scheme", params: address },
      };
    case "credentials": {
      // The address is shown without its user and password, never repeating them.
      const url = new URL(text);
      const shown = `${url.host}${url.pathname}`;
      return {
        message: `address "${shown}" carries a user and password; put the credential in a header instead (--bearer-file or --secret-file), where it is kept sealed`,
        refusal: { code: "mcp.address_credentials", params: { address: shown } },
      };
    }
    case "address":
      return {
        message: isPrivateAllowed ? check.why : `${check.why}; ${MCP_PRIVATE_HINT}`,
        refusal: {
          code: isPrivateAllowed ? "mcp.address_barred" : "mcp.address_private",
          params: address,
        },
      };
  }
}

/** The refusal of an address as a sentence; null when it may be called. */
export function mcpAddressRefusal(text: string, isPrivateAllowed: boolean): string | null {
  return refusalOf(text, isPrivateAllowed)?.message ?? null;
}

/** Checks an address as written; answers it parsed. */
export function checkMcpAddress(text: string, isPrivateAllowed: boolean): URL {
  const refused = refusalOf(text, isPrivateAllowed);
  if (refused) throw new ServiceError("invalid", refused.message, refused.refusal);
  return new URL(text);
}
