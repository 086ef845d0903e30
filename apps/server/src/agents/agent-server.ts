// The agent port: TLS only. A WebSocket endpoint where node agents holding a node certificate
// register and send heartbeats, beside a few HTTPS routes (agent-http). Every frame is one
// protobuf Envelope. Bad frames from a registered agent are answered and counted, never fatal;
// before Register a socket gets one small frame and a small byte budget (see agent-admission),
// and sockets that do not authenticate are refused with a reason.
import { messageOf } from "@llmgw/domain";
import type { IncomingMessage } from "node:http";
import { createServer, type Server } from "node:https";
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from "node:net";
import type { TLSSocket } from "node:tls";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { frameBytes } from "./frame-bytes";
import {
  AGENT_WS_PATH,
  ErrorCode,
  decodeEnvelope,
  encodeEnvelope,
  type Envelope,
} from "@llmgw/proto";
import {
  AgentAdmission,
  CLOSE_GRACE_MS,
  meterPreRegister,
  PRE_REGISTER_BYTES_MAX,
  REGISTER_FRAME_BYTES_MAX,
  type PendingSocket,
} from "./agent-admission";
import { HANDSHAKE_CONTESTED_MS, HandshakeGate, HANDSHAKES_AT_ONCE_MAX } from "./handshake-gate";
import { StormTrace } from "./storm-trace";
import {
  handleAgentRequest,
  type AgentRoute,
  type ControlPlanePeer,
  type PeerIdentity,
} from "./agent-http";
import { CLOSE_UNAUTHENTICATED, type AgentSocket } from "./agent-socket";
import type { AgentSessionHandler } from "./session";

/** A session that sends this many malformed frames in a row is closed. */
const MALFORMED_STREAK_MAX = 20;
/** A TCP connection that has not finished its TLS handshake by then is cut. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/**
 * Connections the kernel may hold for the port before the server accepts them. Node's default of
 * 511 overflowed in loaded reconnect storms (TcpExtListenOverflows rose): a SYN dropped from a
 * full queue is sent again only after 1, 3, 7 and 15 s. 4,096 holds a 2,000-node fleet's storm
 * twice over; the kernel caps it at net.core.somaxconn (4,096 on current Linux, 128 on older).
 */
export const AGENT_PORT_BACKLOG = 4_096;

export interface AgentServerOptions {
  host: string;
  port: number;
  maxFrameBytes: number;
  /** Sockets from one address that may be connected and not yet registered at once. */
  unregisteredPerAddressMax: number;
  /** TLS handshakes run at once; more connections wait their turn (HANDSHAKES_AT_ONCE_MAX). */
  handshakesAtOnceMax?: number;
  /** The server's key and certificate, and the cluster CA client certificates must chain to. */
  tls: { key: string; cert: string; ca: string };
  /** The HTTPS routes beside the WebSocket. */
  routes: readonly AgentRoute[];
  /** Checks a client certificate: chained to the CA, unexpired, not revoked. */
  identify(socket: TLSSocket): PeerIdentity;
  /** Checks a client certificate is another control plane's (for "control-plane" routes). */
  identifyControlPlane(socket: TLSSocket): ControlPlanePeer;
  onConnection(socket: AgentSocket): AgentSessionHandler;
  onMalformedFrame(): void;
  log(line: string): void;
  /**
   * Why this control plane takes no agents now (a standby: agents belong to the leader), or null.
   * Checked at every WebSocket upgrade; the agent moves on to its next address.
   */
  refusesAgents?(): string | null;
  /** A socket refused before Register: no valid certificate, or the limits for strangers. */
  onRefused(address: string, reason: string): void;
}

export interface AgentServer {
  port: number;
  /** Closes every agent session (this control plane stopped leading); the port stays open. */
  dropAgents(reason: string): void;
  close(): Promise<void>;
}

/** "Try again later": the agent reconnects, and a standby's refusal sends it on to the next. */
const CLOSE_NOT_LEADER = 1013;

export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const admission = new AgentAdmission(options.unregisteredPerAddressMax);
  const overCap = (req: IncomingMessage) => {
    const pending = admission.find(req.socket);
    return pending?.isOverCap ? admission.refusal(pending.address) : null;
  };
  // The node each upgrading socket's certificate named, from verifyClient to "connection" (the
  // same turn: ws upgrades as soon as verifyClient answers), so the certificate is read once.
  const identified = new WeakMap<object, string>();
  const http: Server = createServer(
    {
      ...options.tls,
      // The certificate is asked for, not required: joining nodes have none yet. Each route
      // and the WebSocket upgrade decide for themselves (options.identify).
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: "TLSv1.2",
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    },
    (req, res) => {
      const admit = (r: IncomingMessage) => admission.find(r.socket)?.admit();
      handleAgentRequest({ ...options, overCap, admit, log: options.log }, req, res);
    },
  );
  // A reconnect storm is let in a few handshakes at a time: the TCP port is a plain server whose
  // connections stay paused (no TLS work) until the gate hands them to the HTTPS server.
  const gate = new HandshakeGate({
    max: options.handshakesAtOnceMax ?? HANDSHAKES_AT_ONCE_MAX,
    start: (socket, waitedMs) => {
      trace.started(waitedMs);
      http.emit("connection", socket);
      (socket as Socket).resume();
    },
    nowMs: () => performance.now(),
    onCut: (address) =>
      options.onRefused(
        address,
        `a TLS handshake from ${address} held its place over ${HANDSHAKE_CONTESTED_MS / 1000} s while another address waited; dial again`,
      ),
  });
  const trace = new StormTrace({ gate, log: options.log });
  // Every connection, so closing the port ends those still waiting or handshaking as well.
  const sockets = new Set<Socket>();
  const tcp = createTcpServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    if (gate.connected(socket) === "refused")
      options.onRefused(
        socket.remoteAddress ?? "",
        `${gate.queued} connections were waiting for a TLS handshake; dial again after a pause`,
      );
    trace.accepted();
  });
  http.on("secureConnection", (socket: TLSSocket) => {
    gate.handshaken(socket);
    trace.secured();
    admission.accept(socket);
  });
  // A failed handshake (a plain ws:// client, a wrong CA) must never take the process down.
  http.on("tlsClientError", () => undefined);
  const wss = new WebSocketServer({
    server: http,
    path: AGENT_WS_PATH,
    maxPayload: options.maxFrameBytes,
    perMessageDeflate: false,
    verifyClient: ({ req }: { req: IncomingMessage }, answer) => {
      const address = req.socket.remoteAddress ?? "";
      const refusal = overCap(req);
      if (refusal) {
        options.onRefused(address, refusal.message);
        return answer(false, refusal.status, refusal.message, refusal.headers);
      }
      const elsewhere = options.refusesAgents?.() ?? null;
      if (elsewhere !== null) return answer(false, 503, elsewhere, { "Retry-After": "1" });
      const peer = options.identify(req.socket as TLSSocket);
      if (peer.ok) {
        identified.set(req.socket, peer.nodeId);
        return answer(true);
      }
      options.onRefused(address, peer.reason);
      answer(false, 401, peer.reason);
    },
  });
  wss.on("connection", (ws, req) => {
    const pending = admission.find(req.socket);
    const nodeId = identified.get(req.socket);
    identified.delete(req.socket);
    if (pending && nodeId !== undefined)
      attach(ws, req.socket as TLSSocket, { pending, nodeId }, options);
    else ws.terminate();
  });
  // A connection error must never take the process down.
  wss.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen({ port: options.port, host: options.host, backlog: AGENT_PORT_BACKLOG }, () =>
      resolve(),
    );
  });
  return {
    port: (tcp.address() as AddressInfo).port,
    dropAgents: (reason) => {
      for (const ws of wss.clients) ws.close(CLOSE_NOT_LEADER, reason.slice(0, 120));
    },
    close: () => {
      trace.stop();
      return closeAll(wss, tcp, sockets);
    },
  };
}

function attach(
  ws: WebSocket,
  tcp: TLSSocket,
  peer: { pending: PendingSocket; nodeId: string },
  options: AgentServerOptions,
): void {
  const { pending } = peer;
  let isClosing = false;
  const close = (code: number, reason: string) => {
    isClosing = true;
    ws.close(code, reason.slice(0, 120));
    // A peer that does not answer the close frame (or keeps sending) is cut, not waited for.
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  };
  const socket: AgentSocket = {
    remoteAddress: pending.address,
    certificateNodeId: peer.nodeId,
    send: (init) => {
      if (ws.readyState === ws.OPEN) ws.send(encodeEnvelope(init));
    },
    close,
  };
  const refuse = (code: number, reason: string) => {
    if (isClosing) return;
    options.onRefused(pending.address, reason);
    close(code, reason);
  };
  const handler = options.onConnection(socket);
  pending.onTimeout = () => refuse(CLOSE_UNAUTHENTICATED, "no Register frame in time");
  // The meter and what it holds are let go once it stops: the session keeps this scope for its life.
  let meter: (() => void) | null = meterPreRegister(
    tcp,
    () => refuse(1009, `sent more than ${PRE_REGISTER_BYTES_MAX} bytes before Register`),
    () => ws.terminate(),
  );
  const stopMeter = () => {
    meter?.();
    meter = null;
  };
  const firstFrame = (data: RawData, isBinary: boolean) => {
    if (!onFirstFrame(frameBytes(data), isBinary, { handler, socket, refuse, options })) return;
    stopMeter();
    pending.admit();
  };
  let malformedStreak = 0;
  ws.on("message", (data: RawData, isBinary: boolean) => {
    if (isClosing) return;
    if (!handler.isRegistered()) return firstFrame(data, isBinary);
    const envelope = decodeFrame(frameBytes(data), isBinary);
    if (typeof envelope === "string") {
      options.onMalformedFrame();
      socket.send({
        msg: { case: "error", value: { code: ErrorCode.MALFORMED_FRAME, message: envelope } },
      });
      malformedStreak += 1;
      if (malformedStreak >= MALFORMED_STREAK_MAX) close(1008, "too many malformed frames");
      return;
    }
    malformedStreak = 0;
    handler.onEnvelope(envelope);
  });
  ws.on("close", () => {
    stopMeter();
    handler.onClose();
  });
  ws.on("error", () => ws.terminate());
}

interface FirstFrameContext {
  handler: AgentSessionHandler;
  socket: AgentSocket;
  refuse(code: number, reason: string): void;
  options: AgentServerOptions;
}

/** The one frame a stranger may send: a Register that fits, or the socket is closed. */
function onFirstFrame(bytes: Buffer, isBinary: boolean, ctx: FirstFrameContext): boolean {
  if (bytes.length > REGISTER_FRAME_BYTES_MAX) {
    ctx.refuse(
      1009,
      `the first frame must be a Register of at most ${REGISTER_FRAME_BYTES_MAX} bytes`,
    );
    return false;
  }
  const envelope = decodeFrame(bytes, isBinary);
  if (typeof envelope === "string") {
    ctx.options.onMalformedFrame();
    ctx.socket.send({
      msg: { case: "error", value: { code: ErrorCode.MALFORMED_FRAME, message: envelope } },
    });
    ctx.refuse(1008, `the first frame must be a Register: ${envelope}`);
    return false;
  }
  ctx.handler.onEnvelope(envelope);
  // The session has already closed a wrong token or a frame that was not Register, with a reason.
  if (!ctx.handler.isRegistered()) ctx.refuse(CLOSE_UNAUTHENTICATED, "not registered");
  return ctx.handler.isRegistered();
}

/** Returns the envelope, or a sentence saying why the frame was refused. */
function decodeFrame(bytes: Buffer, isBinary: boolean): Envelope | string {
  if (!isBinary) return "text frames are not accepted: send a binary protobuf Envelope";
  try {
    return decodeEnvelope(bytes);
  } catch (error) {
    return messageOf(error);
  }
}

async function closeAll(
  wss: WebSocketServer,
  tcp: TcpServer,
  sockets: ReadonlySet<Socket>,
): Promise<void> {
  for (const client of wss.clients) client.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  const closed = new Promise<void>((resolve) => tcp.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await closed;
}
