// Who a request on the API port really came from. Normally the TCP peer; for a request a standby
// control plane passed on to the leader, the address the standby saw, which travels in one header
// that is believed only on the agent port's control-plane route (a client writing it on the API
// port is ignored: nothing reads the header there).
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/** Set by a standby on what it passes to the leader; read on the leader's control-plane route. */
export const CLIENT_ADDRESS_HEADER = "x-llmgw-client-address";

/** Requests relayed by another control plane, with the client address it vouched for. */
const relayedFrom = new WeakMap<IncomingMessage, string>();

/**
 * Marks a request that came from another control plane (already authenticated by its certificate)
 * and takes the client address from its header; without a well-formed address the relaying
 * control plane's own address stands.
 */
export function acceptRelayed(req: IncomingMessage): void {
  const header = req.headers[CLIENT_ADDRESS_HEADER];
  const claimed = typeof header === "string" ? header.trim() : "";
  const address = isIP(claimed) !== 0 ? claimed : (req.socket.remoteAddress ?? "unknown");
  delete req.headers[CLIENT_ADDRESS_HEADER];
  relayedFrom.set(req, address);
}

/** Whether another control plane relayed this request (it is never relayed again). */
export function isRelayed(req: IncomingMessage): boolean {
  return relayedFrom.has(req);
}

/** The address rate limits and audit name: the relayed one, else the TCP peer. */
export function clientAddressOf(req: IncomingMessage): string {
  return relayedFrom.get(req) ?? req.socket.remoteAddress ?? "unknown";
}
