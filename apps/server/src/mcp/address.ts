// Where an MCP server may be: http(s) only, never with a user and password in the address (the
// credential belongs in a sealed header), and private, loopback, link-local or cloud-metadata
// addresses only when configuration allows them (LLMGW_MCP_ALLOW_PRIVATE). A name is checked
// again after it resolves, right before each connection, so DNS cannot point it inside.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { ServiceError, type RefusalInit } from "@llmgw/api";

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

const PRIVATE_NAMES = /^(localhost|.*\.localhost|.*\.internal|.*\.local)$/i;

/** Whether an IP address is private, loopback, link-local, metadata or otherwise not public. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return PRIVATE.check(mapped[1]!, "ipv4");
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, "ipv4");
  if (family === 6) return PRIVATE.check(bare, "ipv6");
  return false;
}

function refuse(message: string, refusal: RefusalInit): never {
  throw new ServiceError("invalid", message, refusal);
}

/** Checks an address as written; answers it parsed. */
export function checkMcpAddress(text: string, isPrivateAllowed: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    refuse(`address "${text}" is not a URL; give one like https://mcp.example.com/mcp`, {
      code: "mcp.address_not_url",
      params: { address: text },
    });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    refuse(
      `address "${text}": only http:// and https:// MCP servers (streamable HTTP) are reached`,
      { code: "mcp.address_scheme", params: { address: text } },
    );
  if (url.username || url.password)
    refuse(
      `address "${url.host}${url.pathname}" carries a user and password; put the credential in a header instead (--bearer-file or --secret-file), where it is kept sealed`,
      { code: "mcp.address_credentials", params: { address: `${url.host}${url.pathname}` } },
    );
  if (!isPrivateAllowed && (isPrivateAddress(url.hostname) || PRIVATE_NAMES.test(url.hostname)))
    refuse(
      `address "${text}" is private, loopback, link-local or a metadata address; the server refuses those unless LLMGW_MCP_ALLOW_PRIVATE=1`,
      { code: "mcp.address_private", params: { address: text } },
    );
  return url;
}

/** Resolves the host and refuses it when any of its addresses is private (unless allowed). */
export async function checkResolvedAddress(url: URL, isPrivateAllowed: boolean): Promise<void> {
  if (isPrivateAllowed || isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0) return;
  const addresses = await lookup(url.hostname, { all: true });
  const inside = addresses.find((address) => isPrivateAddress(address.address));
  if (inside)
    throw new Error(
      `${url.hostname} resolves to ${inside.address}, a private address; refused unless LLMGW_MCP_ALLOW_PRIVATE=1`,
    );
}
