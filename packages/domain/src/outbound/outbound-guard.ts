// The guard on every address the control plane calls on an operator's behalf: external model
// providers, MCP servers, and peers later. It allows only global unicast addresses (ipaddr.js's
// ranges decide what is special; IPv6 must also lie in 2000::/3), unless the private switch is
// set. An IPv6 address that carries an IPv4 address inside (mapped, compatible, translated,
// NAT64, 6to4, Teredo) is a disguise: without the switch it is refused as such, and with it the
// IPv4 address inside is judged too. Cloud metadata services, unspecified, broadcast and
// multicast addresses are refused even with the switch: nothing legitimate lives there, and a
// metadata service hands out credentials. Pure: the server runs the same judgement on what DNS
// answers, at connect time (apps/server/src/outbound/guarded-agent.ts).
import ipaddr from "ipaddr.js";

const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);
/** Names that only ever mean this machine or the local network. */
const PRIVATE_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/** What each ipaddr.js range is called in a refusal. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  reserved: "a reserved or documentation (TEST-NET) address",
  uniqueLocal: "a private (unique local) address",
  ipv4Mapped: "an IPv4-mapped address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "an IPv4-embedded (NAT64) address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  benchmarking: "a benchmarking address",
  amt: "an AMT address",
  as112: "an AS112 address",
  as112v6: "an AS112 address",
  deprecatedSiteLocal: "a site-local address",
  discard: "a discard address",
  deprecatedOrchid: "an ORCHID address",
  orchid2: "an ORCHID address",
  droneRemoteIdProtocolEntityTags: "a reserved address",
  segmentRouting: "a segment-routing address",
};
/** Ranges refused even when private addresses are allowed. */
const NEVER_RANGES = new Set(["unspecified", "broadcast", "multicast"]);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

function ipv4From(bytes: number[], at: number, mask = 0): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(at, at + 4).map((byte) => byte ^ mask));
}

/** The IPv4 address an IPv6 address carries inside, with what that form is called; or null. */
export function embeddedIpv4(address: ipaddr.IPv6): { ipv4: ipaddr.IPv4; form: string } | null {
  const bytes = address.toByteArray();
  const range = address.range();
  const isZero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052")
    return { ipv4: ipv4From(bytes, 12), form: RANGE_WORDS[range] ?? range };
  // ::a.b.c.d (RFC 4291's deprecated IPv4-compatible form); :: and ::1 are judged as themselves.
  if (isZero(0, 12) && !isZero(12, 15))
    return { ipv4: ipv4From(bytes, 12), form: "an IPv4-compatible address" };
  if (range === "6to4") return { ipv4: ipv4From(bytes, 2), form: "a 6to4 address" };
  // Teredo keeps the client's address inverted in the last 32 bits.
  if (range === "teredo") return { ipv4: ipv4From(bytes, 12, 0xff), form: "a Teredo address" };
  return null;
}

function isMetadata(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return (
    METADATA_ADDRESSES.has(address.toString()) ||
    METADATA_ADDRESSES.has(address.toNormalizedString())
  );
}

function isGlobalUnicast(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.range() !== "unicast") return false;
  return address.kind() === "ipv4" || (address as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** Refusals that hold whatever the private switch says, for an address and what it carries. */
function alwaysBarred(judged: (ipaddr.IPv4 | ipaddr.IPv6)[]): string | null {
  for (const address of judged) {
    if (isMetadata(address)) return "a cloud metadata address";
    const range = address.range();
    if (NEVER_RANGES.has(range)) return RANGE_WORDS[range] ?? range;
  }
  return null;
}

/**
 * Why an IP address must not be called, or null when it may be; null too for a text that is not
 * an IP address (a name: the caller checks it with `barredName` and again after DNS).
 */
export function barredAddress(address: string, allowPrivate: boolean): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  const inside = parsed.kind() === "ipv6" ? embeddedIpv4(parsed as ipaddr.IPv6) : null;
  const always = alwaysBarred(inside ? [parsed, inside.ipv4] : [parsed]);
  if (always) return inside ? `${inside.form} hiding ${inside.ipv4.toString()}, ${always}` : always;
  if (allowPrivate) return null;
  if (inside) {
    const hidden = inside.ipv4.toString();
    const insideWhy = rangeRefusal(inside.ipv4);
    return insideWhy
      ? `${inside.form} hiding ${hidden}, ${insideWhy}`
      : `${inside.form} hiding ${hidden}; write ${hidden} itself`;
  }
  return rangeRefusal(parsed);
}

function rangeRefusal(address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (isGlobalUnicast(address)) return null;
  return RANGE_WORDS[address.range()] ?? "not a global unicast address";
}

/** Why a host name must not be called before it is even resolved, or null. */
export function barredName(host: string, allowPrivate: boolean): string | null {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (METADATA_HOSTS.has(name)) return "a cloud metadata service";
  if (!allowPrivate && PRIVATE_NAME.test(name)) return "a loopback or local-network name";
  return null;
}

/** `kind` lets each caller say what to do instead: the remedy differs by what is being called. */
export type OutboundUrlCheck =
  | { ok: true; url: URL }
  | { ok: false; why: string; kind: "not-url" | "scheme" | "credentials" | "address" };

/** Checks a URL before anything is sent to it; `why` names the URL and the reason. */
export function checkOutboundUrl(raw: string, allowPrivate: boolean): OutboundUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, why: `"${raw}" is not a URL`, kind: "not-url" };
  }
  // Never repeat a user name or password back: the URL is shown without them.
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return {
      ok: false,
      why: `${shown} is refused: only http and https are allowed`,
      kind: "scheme",
    };
  if (url.username !== "" || url.password !== "")
    return {
      ok: false,
      why: `${shown} is refused: it carries a user name or password`,
      kind: "credentials",
    };
  // WHATWG parsing has already turned 2130706433, 0x7f.1 and [::127.0.0.1] into canonical forms.
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const barred = barredAddress(host, allowPrivate) ?? barredName(host, allowPrivate);
  if (barred)
    return { ok: false, why: `${shown} is refused: ${host} is ${barred}`, kind: "address" };
  return { ok: true, url };
}
