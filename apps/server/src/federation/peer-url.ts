// Where a peer may be. Peers sit on the company's own network, so an administrator may name a
// private or loopback address; a cloud metadata address and a user:password in the URL are refused
// always (the key travels sealed, never in the address). The same outbound guard the MCP gateway
// and external models use judges it, and judges every address the name resolves to on connect.
import { ServiceError } from "@llmgw/api";
import { checkOutboundUrl } from "@llmgw/domain";

export const PEER_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** The peer's base address as given, checked; its path is kept (a peer behind a path prefix). */
export function checkPeerUrl(text: string): URL {
  const check = checkOutboundUrl(text, true);
  if (check.ok) {
    check.url.hash = "";
    check.url.search = "";
    return check.url;
  }
  switch (check.kind) {
    case "not-url":
      throw new ServiceError(
        "invalid",
        `peer address "${text.slice(0, 200)}" is not a URL; give the peer's base address, like https://llmgw.b.example:8080`,
        { code: "federation.url_not_url", params: { url: text.slice(0, 200) } },
      );
    case "scheme":
      throw new ServiceError("invalid", `${check.why}: a peer is reached over HTTP`, {
        code: "federation.url_scheme",
        params: { url: text.slice(0, 200) },
      });
    case "credentials": {
      const url = new URL(text);
      const shown = `${url.protocol}//${url.host}${url.pathname}`;
      throw new ServiceError(
        "invalid",
        `peer address ${shown} carries a user name or password; give the peer's API key with --key-file instead, where it is kept sealed`,
        { code: "federation.url_credentials", params: { url: shown } },
      );
    }
    case "address":
      throw new ServiceError("invalid", check.why, {
        code: "federation.url_barred",
        params: { url: text.slice(0, 200) },
      });
  }
}

/** A peer's address with a path under it (`/ready`, `/v1/models`), the base's own path kept. */
export function peerPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}${path}`;
}
