// The standby's side of /api: the console and the CLI must see the leader's live view (its
// connected nodes, its placements), which a standby does not hold. So while this process does not
// lead, every `/api/` request is passed to the leader's agent port (`/cp/v1/api/...`) over mutual
// TLS: this control plane's own certificate, the leader checked against the cluster CA. Bodies
// stream both ways. Without a leader that answers, the client gets a 503 it can retry, never a 500.
import type {
  ClientRequest,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from "node:http";
import { Agent, request } from "node:https";
import type { TLSSocket } from "node:tls";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { Refusal } from "@llmgw/api";
import { messageOf } from "@llmgw/domain";
import { CLIENT_ADDRESS_HEADER, isRelayed } from "../http/client-address";
import { sendJson } from "../http/send-json";
import { CONTROL_PLANE_API_PREFIX, NOT_LEADER_HEADER } from "./control-plane-api";

/** A leader that has not finished the TLS handshake by then is taken for gone. */
const CONNECT_TIMEOUT_MS = 3_000;
/**
 * How long the leader may take to begin its answer once the request is sent: longer than any API
 * call waits on an agent (LLMGW_AGENT_REQUEST_TIMEOUT_MS, 15 s by default).
 */
const ANSWER_TIMEOUT_MS = 60_000;
/** Headers that belong to one connection, never passed on (RFC 9110 §7.6.1), and the host. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

export interface LeaderProxyOptions {
  isLeader(): boolean;
  /** `https://HOST:AGENTPORT` of the leading control plane, or null when none is known. */
  leaderPeerUrl(): string | null;
  /** This control plane's key and certificate, and the cluster CA the leader's must chain to. */
  tls: { key: string; cert: string; ca: string };
  log(line: string): void;
  connectTimeoutMs?: number;
}

export interface LeaderProxy {
  /** Passes an `/api/` request on while this process is a standby; false when it leads. */
  forward(req: IncomingMessage, res: ServerResponse): boolean;
  close(): void;
}

export function createLeaderProxy(options: LeaderProxyOptions): LeaderProxy {
  // Kept-alive connections: a console polls every few seconds, each a new TLS handshake otherwise.
  const agent = new Agent({ keepAlive: true, ...options.tls });
  return {
    forward(req, res) {
      if (options.isLeader() || isRelayed(req)) return false;
      const peerUrl = options.leaderPeerUrl();
      if (!peerUrl) refuse(res, "no control plane leads now");
      else pass(req, res, peerUrl, agent, options);
      return true;
    },
    close: () => agent.destroy(),
  };
}

/** `/api/X?Q` on the leader's agent port, or null for a path that would leave the API prefix. */
export function leaderTarget(requestUrl: string, peerUrl: string): URL | null {
  const [path = "", ...query] = requestUrl.split("?");
  if (!path.startsWith("/api/")) return null;
  const target = new URL(`${CONTROL_PLANE_API_PREFIX}${path.slice("/api/".length)}`, peerUrl);
  // `..` (or `%2e%2e`) would reach the agent port's other routes with this server's certificate.
  if (!target.pathname.startsWith(CONTROL_PLANE_API_PREFIX)) return null;
  target.search = query.length > 0 ? `?${query.join("?")}` : "";
  return target;
}

/** The client's headers without hop-by-hop ones, with who sent them and to which host. */
export function forwardedHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const named = new Set(
    String(req.headers.connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase()),
  );
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) headers[name] = value;
  // The leader checks a browser's Origin against the host the browser asked for: this one's.
  headers["x-forwarded-host"] ??= req.headers.host;
  // Overwrites whatever the client wrote: only what this process saw is vouched for.
  headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  return headers;
}

function pass(
  req: IncomingMessage,
  res: ServerResponse,
  peerUrl: string,
  agent: Agent,
  options: LeaderProxyOptions,
): void {
  const target = leaderTarget(req.url ?? "/", peerUrl);
  if (!target)
    return sendJson(res, 400, {
      error: { message: `${req.url ?? ""} is not an API path`, data: { code: "BAD_REQUEST" } },
    });
  const upstream = request(target, {
    method: req.method,
    headers: forwardedHeaders(req),
    agent,
    ...options.tls,
  });
  const stopTimers = watchLeader(upstream, options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
  upstream.on("response", (answer) => {
    stopTimers();
    if (answer.headers[NOT_LEADER_HEADER] !== undefined) {
      answer.resume();
      return refuse(res, `${target.host} no longer leads`);
    }
    res.writeHead(answer.statusCode ?? 502, answerHeaders(answer));
    // Event streams need their headers now, not with the first event.
    res.flushHeaders();
    answer.pipe(res);
    answer.on("aborted", () => res.destroy());
  });
  upstream.on("error", (error) => {
    stopTimers();
    options.log(
      `standby: ${req.method} ${target.pathname} to the leader failed: ${messageOf(error)}`,
    );
    if (!res.headersSent) refuse(res, `the leader at ${target.host} does not answer`);
    else res.destroy();
  });
  // A client that goes away takes the leader's work for it away too.
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

/**
 * Takes the leader for gone when its TLS handshake does not finish in `connectTimeoutMs`, or when
 * no answer starts within ANSWER_TIMEOUT_MS of the request's last byte (a kept-alive connection to
 * a host that lost power never fails by itself). Returns what stops both clocks.
 */
function watchLeader(upstream: ClientRequest, connectTimeoutMs: number): () => void {
  const giveUp = (why: string) => () => upstream.destroy(new Error(why));
  const connectTimer = setTimeout(giveUp("the TLS handshake timed out"), connectTimeoutMs);
  let answerTimer: NodeJS.Timeout | undefined;
  let isAnswered = false;
  upstream.on("socket", (socket) => {
    const tls = socket as TLSSocket;
    if (!tls.connecting) clearTimeout(connectTimer);
    else tls.once("secureConnect", () => clearTimeout(connectTimer));
  });
  upstream.on("finish", () => {
    if (!isAnswered) answerTimer = setTimeout(giveUp("no answer began in time"), ANSWER_TIMEOUT_MS);
  });
  return () => {
    isAnswered = true;
    clearTimeout(connectTimer);
    clearTimeout(answerTimer);
  };
}

function answerHeaders(answer: IncomingMessage): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  return headers;
}

const NO_LEADER: Refusal = { code: "standby.no_leader", params: {} };

/** tRPC's error shape (the console reads `data.refusal`), 503 and a retry in a second. */
function refuse(res: ServerResponse, why: string): void {
  const message = `this control plane is a standby and cannot reach the leader (${why}); try again in a moment`;
  sendJson(
    res,
    503,
    {
      error: {
        message,
        code: TRPC_ERROR_CODES_BY_KEY.SERVICE_UNAVAILABLE,
        data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503, refusal: NO_LEADER },
      },
    },
    { "retry-after": "1" },
  );
}
