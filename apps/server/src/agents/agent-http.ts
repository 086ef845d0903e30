// The plain HTTPS routes of the agent port, beside its WebSocket: a small table of routes, each
// either open (a node that has no certificate yet: the CA, joining), for nodes holding a valid
// certificate (renewal, and whatever else a node fetches), or for the other control planes of the
// cluster (a standby passing the console's /api on). One more route is one more row.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { sendJson } from "../http/send-json";

/** Who a request's client certificate says it is, or why it says nothing we accept. */
export type PeerIdentity = { ok: true; nodeId: string } | { ok: false; reason: string };

/**
 * Whether a client certificate is another control plane's: 401 without a usable certificate of
 * the cluster, 403 for a valid certificate that is not a control plane's (a node's).
 */
export type ControlPlanePeer =
  { ok: true; name: string } | { ok: false; status: 401 | 403; reason: string };

export interface AgentRequest {
  req: IncomingMessage;
  res: ServerResponse;
  address: string;
  /** The path after the route's prefix (for prefix routes), e.g. a file name. */
  rest: string;
}

export interface AgentRoute {
  /** "*" takes every method: the handler behind the route answers for each. */
  method: "GET" | "POST" | "*";
  /** An exact path, or a prefix ending in `/` that matches everything below it. */
  path: string;
  /**
   * "open": anyone who reaches the port; "node": a valid, unrevoked node certificate;
   * "control-plane": a certificate the cluster CA issued to a control plane (never a node's).
   */
  access: "open" | "node" | "control-plane";
  handle(request: AgentRequest, nodeId: string | null): Promise<void> | void;
}

export interface AgentHttpOptions {
  routes: readonly AgentRoute[];
  identify(socket: TLSSocket): PeerIdentity;
  identifyControlPlane(socket: TLSSocket): ControlPlanePeer;
  /**
   * A control plane's or an identified node's connection is no stranger's: it leaves the
   * unregistered count and its register timer (a release download may take longer than that).
   */
  admit(req: IncomingMessage): void;
  /** Answers a refusal when the address has too many unregistered sockets open. */
  overCap(
    req: IncomingMessage,
  ): { status: number; message: string; headers: Record<string, string> } | null;
  log(line: string): void;
}

export function handleAgentRequest(
  options: AgentHttpOptions,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const url = new URL(req.url ?? "/", "https://agent-port");
  const route = options.routes.find((r) => matches(r, url.pathname));
  if (!route) {
    const message = "agents connect with a WebSocket to /agent/v1 or use the /agent/v1 routes";
    return sendJson(res, 426, { code: "not_found", message });
  }
  if (route.method !== "*" && route.method !== req.method)
    return sendJson(res, 405, { code: "method", message: `${url.pathname} takes ${route.method}` });
  const nodeId = admitted(options, route, req, res);
  if (nodeId === false) return;
  const rest = route.path.endsWith("/") ? url.pathname.slice(route.path.length) : "";
  const address = req.socket.remoteAddress ?? "";
  Promise.resolve(route.handle({ req, res, address, rest }, nodeId)).catch((error: unknown) => {
    options.log(
      `agent port: ${req.method} ${url.pathname} from ${address} failed: ${String(error)}`,
    );
    if (!res.headersSent)
      sendJson(res, 500, { code: "internal", message: "the server failed; see its log" });
    else res.destroy();
  });
}

/**
 * Checks the route's access and answers the refusal itself: false when refused, else the node id
 * (null for routes that are not a node's). A control plane is identified before the cap on
 * strangers, so a standby's many requests never count against its address.
 */
function admitted(
  options: AgentHttpOptions,
  route: AgentRoute,
  req: IncomingMessage,
  res: ServerResponse,
): string | null | false {
  if (route.access === "control-plane") {
    const peer = options.identifyControlPlane(req.socket as TLSSocket);
    if (!peer.ok) {
      const code = peer.status === 401 ? "unauthenticated" : "forbidden";
      sendJson(res, peer.status, { code, message: peer.reason });
      return false;
    }
    options.admit(req);
    return null;
  }
  const limit = options.overCap(req);
  if (limit) {
    sendJson(res, limit.status, { code: "too_many", message: limit.message }, limit.headers);
    return false;
  }
  if (route.access !== "node") {
    // A stranger's connection keeps its register timer, which cuts it 10 s after it was made
    // whatever it is doing: so it is closed after this answer rather than kept for another
    // request (a client reusing it, as Node's keep-alive agent does, would be cut mid-request).
    res.shouldKeepAlive = false;
    return null;
  }
  const peer = options.identify(req.socket as TLSSocket);
  if (peer.ok) {
    options.admit(req);
    return peer.nodeId;
  }
  sendJson(res, 401, { code: "unauthenticated", message: peer.reason });
  return false;
}

function matches(route: AgentRoute, pathname: string): boolean {
  return route.path.endsWith("/")
    ? pathname.startsWith(route.path) && pathname.length > route.path.length
    : pathname === route.path;
}

/** Reads a JSON body of at most `bytesMax`; answers a sentence on failure instead of throwing. */
export async function readJsonBody(
  req: IncomingMessage,
  bytesMax: number,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > bytesMax) {
      req.destroy();
      return { ok: false, status: 413, message: `the body is over ${bytesMax} bytes` };
    }
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { ok: false, status: 400, message: "the body is not JSON" };
  }
}
