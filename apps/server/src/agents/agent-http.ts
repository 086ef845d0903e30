// The plain HTTPS routes of the agent port, beside its WebSocket: a small table of routes, each
// either open (a node that has no certificate yet: the CA, joining) or for nodes holding a valid
// certificate (renewal, and whatever else a node fetches). One more route is one more row.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { sendJson } from "../http/send-json";

/** Who a request's client certificate says it is, or why it says nothing we accept. */
export type PeerIdentity = { ok: true; nodeId: string } | { ok: false; reason: string };

export interface AgentRequest {
  req: IncomingMessage;
  res: ServerResponse;
  address: string;
  /** The path after the route's prefix (for prefix routes), e.g. a file name. */
  rest: string;
}

export interface AgentRoute {
  method: "GET" | "POST";
  /** An exact path, or a prefix ending in `/` that matches everything below it. */
  path: string;
  /** "open": anyone who reaches the port; "node": a valid, unrevoked node certificate. */
  access: "open" | "node";
  handle(request: AgentRequest, nodeId: string | null): Promise<void> | void;
}

export interface AgentHttpOptions {
  routes: readonly AgentRoute[];
  identify(socket: TLSSocket): PeerIdentity;
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
  if (route.method !== req.method)
    return sendJson(res, 405, { code: "method", message: `${url.pathname} takes ${route.method}` });
  const limit = options.overCap(req);
  if (limit)
    return sendJson(res, limit.status, { code: "too_many", message: limit.message }, limit.headers);
  let nodeId: string | null = null;
  if (route.access === "node") {
    const peer = options.identify(req.socket as TLSSocket);
    if (!peer.ok) return sendJson(res, 401, { code: "unauthenticated", message: peer.reason });
    nodeId = peer.nodeId;
  }
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
