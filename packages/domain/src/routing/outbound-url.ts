// The guard on URLs the gateway calls on an operator's behalf (external models): no credentials
// in the URL, and no private, loopback, link-local or cloud-metadata address, unless the operator
// allows private upstreams. Pure: names that need DNS are checked again, by address, at connect
// time (apps/server/src/gateway/upstream.ts).
import ipaddr from "ipaddr.js";

const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);

/** ipaddr.js ranges a public upstream never has. */
const BARRED_RANGES: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  reserved: "a reserved address",
  uniqueLocal: "a private (unique local) address",
  ipv4Mapped: "an IPv4-mapped address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "an IPv4-embedded address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  benchmarking: "a benchmarking address",
  amt: "an AMT address",
  as112v4: "an AS112 address",
  as112v6: "an AS112 address",
  deprecated: "a deprecated address",
  orchid2: "an ORCHID address",
  droneRemoteIdProtocolEntityTags: "a reserved address",
};

/** Why an address must not be called, or null when it is a public unicast address. */
export function barredAddress(address: string, allowPrivate: boolean): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare)) return null;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  // Metadata services are barred even when private upstreams are allowed: they hand out credentials.
  if (
    METADATA_ADDRESSES.has(parsed.toNormalizedString()) ||
    METADATA_ADDRESSES.has(parsed.toString())
  )
    return "a cloud metadata address";
  if (allowPrivate) return null;
  const range = parsed.range();
  if (range === "unicast") return null;
  return BARRED_RANGES[range] ?? `an address in the ${range} range`;
}

export type OutboundUrlCheck = { ok: true; url: URL } | { ok: false; why: string };

/** Checks an upstream URL before anything is sent to it; `why` names the URL and the reason. */
export function checkOutboundUrl(raw: string, allowPrivate: boolean): OutboundUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, why: `"${raw}" is not a URL` };
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, why: `${shown} is refused: only http and https are allowed` };
  if (url.username !== "" || url.password !== "")
    return {
      ok: false,
      why: `${shown} is refused: it carries a user name or password; put the key in a key file instead`,
    };
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_HOSTS.has(host))
    return { ok: false, why: `${shown} is refused: ${host} is a cloud metadata service` };
  const barred = barredAddress(host, allowPrivate);
  if (barred) return { ok: false, why: `${shown} is refused: ${host} is ${barred}` };
  if (!allowPrivate && (host === "localhost" || host.endsWith(".localhost")))
    return { ok: false, why: `${shown} is refused: ${host} is a loopback name` };
  return { ok: true, url };
}
