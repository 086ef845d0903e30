// The agent's session with the control plane: one WebSocket at a time to one of several
// addresses, Register first, heartbeats at the interval the server asks for, Pong for Ping.
// Start-up order never matters: a lost or refused connection is retried with backoff forever,
// and the backoff starts again after a session that worked. A control plane that goes silent
// (frozen, or its machine gone behind a live route) is left after idle + ping timeout for the next
// address; the list grows with the control planes a RegisterAck names.
import { messageOf } from "@llmgw/domain";
import {
  decodeEnvelope,
  encodeEnvelope,
  ErrorCode,
  MAX_FRAME_BYTES,
  type Envelope,
  type EnvelopeInit,
} from "@llmgw/proto";
import WebSocket from "ws";
import { createBackoff, DEFAULT_BACKOFF, type Backoff } from "./backoff";
import { agentSocketUrl } from "./config";
import { toBytes } from "./frame-bytes";
import {
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DIAL_HANDSHAKE_TIMEOUT_MS,
  realTimers,
  REQUEST_CASES,
  AUTH_CLOSE_CODES,
  type ConnectionOptions,
  type ConnectionState,
  type Timers,
} from "./connection-options";
import { DEFAULT_IDLE_MS, DEFAULT_PING_TIMEOUT_MS, watchLiveness, type Liveness } from "./liveness";
import { ServerRotation } from "./server-list";
import { TlsSessionCache } from "./tls-sessions";

const STOP_GRACE_MS = 2000;

/** One socket and what belongs to it; a new connection gets a new session. */
interface Session {
  socket: WebSocket;
  serverUrl: string;
  registered: boolean;
  heartbeatTimer: unknown;
  liveness?: Liveness;
  /** Left for silence: the next connection goes to the next address, not back to this one. */
  silent: boolean;
  /** A standby answered (503): a leader exists or is about to, so retries stay quick. */
  standby?: boolean;
}

/**
 * The longest wait after a round refused by standbys: one of them leads within a lease once the
 * old leader is gone, and an agent waiting out a long backoff then would come back late.
 */
const STANDBY_RETRY_MAX_MS = 2_000;

export class AgentConnection {
  private readonly timers: Timers;
  private readonly backoff: Backoff;
  private readonly rotation: ServerRotation;
  private session: Session | undefined;
  private reconnectTimer: unknown;
  private requestCounter = 0;
  private currentState: ConnectionState = "idle";
  private readonly tlsSessions: TlsSessionCache;

  constructor(private readonly options: ConnectionOptions) {
    this.rotation = new ServerRotation(options.serverUrls);
    this.timers = options.timers ?? realTimers;
    this.tlsSessions = options.tlsSessions ?? new TlsSessionCache();
    this.backoff = createBackoff({
      ...(options.backoff ?? DEFAULT_BACKOFF),
      random: options.random,
    });
  }

  /** The control planes known now: the configured ones and those RegisterAcks named. */
  get knownServerUrls(): readonly string[] {
    return this.rotation.known;
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  start(): void {
    if (this.currentState !== "idle") return;
    this.connect();
  }

  /** Closes the socket and cancels every timer; resolves once the socket is closed. */
  async stop(): Promise<void> {
    this.currentState = "stopped";
    this.timers.clearTimeout(this.reconnectTimer);
    const session = this.session;
    if (session === undefined) return;
    this.timers.clearTimeout(session.heartbeatTimer);
    session.liveness?.stop();
    const socket = session.socket;
    if (socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => socket.terminate(), STOP_GRACE_MS);
      socket.once("close", () => {
        clearTimeout(force);
        resolve();
      });
      socket.close(1000, "agent stopping");
    });
  }

  private connect(): void {
    const serverUrl = this.rotation.take();
    this.currentState = "connecting";
    const tls = this.options.tls?.() ?? null;
    const socket = new WebSocket(agentSocketUrl(serverUrl), {
      // Mutual TLS: the cluster CA is the only trust anchor, the node certificate its identity.
      // The last session this server gave is offered again: a reconnect resumes the handshake.
      ...(tls && serverUrl.startsWith("wss:")
        ? { ...tls, createConnection: this.tlsSessions.connector(serverUrl, tls.cert) }
        : {}),
      maxPayload: MAX_FRAME_BYTES,
      handshakeTimeout: this.options.handshakeTimeoutMs ?? DIAL_HANDSHAKE_TIMEOUT_MS,
      perMessageDeflate: false,
    });
    const session: Session = {
      socket,
      serverUrl,
      registered: false,
      heartbeatTimer: undefined,
      silent: false,
    };
    this.session = session;
    socket.on("open", () => this.onOpen(session));
    socket.on("message", (data, isBinary) => this.onMessage(session, data, isBinary));
    socket.on("error", (error) => this.onError(session, error));
    socket.on("close", (code, reason) => this.onClose(session, code, reason.toString("utf8")));
  }

  private onOpen(session: Session): void {
    this.options.logger.info("connected", { server: session.serverUrl });
    session.liveness = this.watch(session);
    this.send(session, {
      requestId: this.nextRequestId("register"),
      msg: { case: "register", value: this.options.register() },
    });
  }

  private onMessage(session: Session, data: WebSocket.RawData, isBinary: boolean): void {
    // Any frame, even one ignored below, proves the server is running.
    session.liveness?.heard();
    if (!isBinary) {
      this.options.logger.warn("frame ignored", {
        server: session.serverUrl,
        why: "text frame; the protocol is binary protobuf",
      });
      return;
    }
    let envelope: Envelope;
    try {
      envelope = decodeEnvelope(toBytes(data));
    } catch (error) {
      this.options.logger.warn("frame ignored", {
        server: session.serverUrl,
        why: messageOf(error),
      });
      return;
    }
    this.handleEnvelope(session, envelope);
  }

  /** Pings after idleMs of silence and terminates the socket when the ping goes unanswered. */
  private watch(session: Session): Liveness {
    return watchLiveness({
      timers: this.timers,
      idleMs: this.options.idleMs ?? DEFAULT_IDLE_MS,
      pingTimeoutMs: this.options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS,
      ping: () =>
        this.send(session, {
          requestId: this.nextRequestId("ping"),
          msg: { case: "ping", value: { sentAtMs: BigInt(this.options.nowMs()) } },
        }),
      dead: (silentMs) => {
        if (this.session !== session || this.currentState === "stopped") return;
        this.options.logger.warn("server silent", {
          server: session.serverUrl,
          why: `no frame from ${session.serverUrl} for ${silentMs / 1000} s`,
        });
        session.silent = true;
        // A frozen peer never answers a close handshake: drop the socket at once.
        session.socket.terminate();
      },
    });
  }

  private handleEnvelope(session: Session, envelope: Envelope): void {
    const { msg } = envelope;
    switch (msg.case) {
      case "registerAck": {
        session.registered = true;
        this.currentState = "registered";
        this.backoff.reset();
        this.rotation.worked();
        this.learnServerUrls(session, msg.value.agentUrls);
        const intervalMs = msg.value.heartbeatIntervalMs || DEFAULT_HEARTBEAT_INTERVAL_MS;
        this.options.logger.info("registered", {
          server: session.serverUrl,
          node: msg.value.nodeId,
          heartbeat_ms: intervalMs,
          server_version: msg.value.serverVersion || undefined,
        });
        // A repeated ack restarts the chain rather than starting a second one beside it.
        this.timers.clearTimeout(session.heartbeatTimer);
        this.scheduleHeartbeat(session, intervalMs, 0);
        return;
      }
      case "pong":
        // The answer to our idle ping: its arrival (already noted) is all that matters.
        return;
      case "ping":
        this.send(session, {
          requestId: envelope.requestId,
          msg: { case: "pong", value: { sentAtMs: msg.value.sentAtMs } },
        });
        return;
      case "error": {
        const code = ErrorCode[msg.value.code] ?? String(msg.value.code);
        const level = msg.value.code === ErrorCode.UNAUTHENTICATED ? "error" : "warn";
        this.options.logger.log(level, "server error", {
          server: session.serverUrl,
          code,
          message: msg.value.message,
          request: envelope.requestId || undefined,
        });
        return;
      }
      default:
        if (
          msg.case !== undefined &&
          REQUEST_CASES.has(msg.case) &&
          this.options.onRequest !== undefined
        ) {
          void this.serveRequest(session, envelope, this.options.onRequest);
          return;
        }
        this.options.logger.warn("frame ignored", {
          server: session.serverUrl,
          why: `unexpected ${msg.case ?? "empty"} from the server`,
        });
    }
  }

  private async serveRequest(
    session: Session,
    envelope: Envelope,
    handler: NonNullable<ConnectionOptions["onRequest"]>,
  ): Promise<void> {
    try {
      const reply = await handler(envelope);
      if (reply !== undefined) this.send(session, { ...reply, requestId: envelope.requestId });
    } catch (error) {
      const message = `${envelope.msg.case ?? "request"} failed: ${messageOf(error)}`;
      this.options.logger.warn("request failed", {
        server: session.serverUrl,
        request: envelope.requestId || undefined,
        why: message,
      });
      this.send(session, {
        requestId: envelope.requestId,
        msg: { case: "error", value: { code: ErrorCode.UNSPECIFIED, message } },
      });
    }
  }

  /** i14: the control plane of the registered session, where a self-upgrade fetches its release. */
  get serverUrl(): string | undefined {
    return this.session?.registered ? this.session.serverUrl : undefined;
  }

  /** Sends a frame on the current session once registered; dropped otherwise (heartbeats carry the level). */
  sendFrame(init: EnvelopeInit): boolean {
    const session = this.session;
    if (
      session === undefined ||
      !session.registered ||
      session.socket.readyState !== WebSocket.OPEN
    )
      return false;
    this.send(session, init);
    return true;
  }

  /** Heartbeats are chained, not on an interval, so a slow nvidia-smi never stacks them up. */
  private scheduleHeartbeat(session: Session, intervalMs: number, delayMs: number): void {
    session.heartbeatTimer = this.timers.setTimeout(() => {
      void this.sendHeartbeat(session).finally(() => {
        if (this.session === session && session.socket.readyState === WebSocket.OPEN)
          this.scheduleHeartbeat(session, intervalMs, intervalMs);
      });
    }, delayMs);
  }

  private async sendHeartbeat(session: Session): Promise<void> {
    try {
      const heartbeat = await this.options.heartbeat();
      const replicas = this.options.replicaLevel?.() ?? heartbeat.replicas;
      const sentAtMs = BigInt(this.options.nowMs());
      this.send(session, {
        msg: { case: "heartbeat", value: { ...heartbeat, replicas, sentAtMs } },
      });
    } catch (error) {
      this.options.logger.warn("heartbeat skipped", { why: messageOf(error) });
    }
  }

  private onError(session: Session, error: Error): void {
    if (this.currentState === "stopped") return;
    const refused = /Unexpected server response: (401|403)/.test(error.message);
    if (/Unexpected server response: 503/.test(error.message)) {
      session.standby = true;
      this.options.logger.info("a standby answered; trying the next control plane", {
        server: session.serverUrl,
      });
    } else if (refused) {
      this.options.logger.error("refused by server", {
        server: session.serverUrl,
        why: error.message,
        fix: "check the join token (LLMGW_JOIN_TOKEN or --token-file)",
      });
    } else {
      this.options.logger.warn("connection error", {
        server: session.serverUrl,
        why: error.message,
      });
    }
  }

  private onClose(session: Session, code: number, reason: string): void {
    this.timers.clearTimeout(session.heartbeatTimer);
    session.liveness?.stop();
    if (this.session !== session || this.currentState === "stopped") return;
    if (AUTH_CLOSE_CODES.includes(code)) {
      this.tlsSessions.forget(session.serverUrl);
      this.options.logger.error("refused by server", {
        server: session.serverUrl,
        code,
        reason,
        fix: "the node certificate was refused: if the node was removed, join it again (llmgw agent join); retrying",
      });
    } else if (session.registered) {
      this.options.logger.warn("disconnected", {
        server: session.serverUrl,
        code,
        reason: reason || undefined,
      });
    }
    this.scheduleReconnect(session);
  }

  /**
   * After a session that worked: back to the same address soon (jittered, so a restarted server
   * is not hit by every agent at once). After a failure: the next address at once, and the full
   * backoff only when every address in the list has failed in turn.
   */
  private scheduleReconnect(session: Session): void {
    let delayMs = 0;
    if (session.registered) {
      this.backoff.reset();
      this.rotation.ended(session.serverUrl, session.silent);
      delayMs = this.backoff.nextDelayMs();
    } else if (this.rotation.failed()) {
      delayMs = this.backoff.nextDelayMs();
      if (session.standby) delayMs = Math.min(delayMs, STANDBY_RETRY_MAX_MS);
    }
    this.currentState = "waiting";
    this.options.logger.info("reconnecting", { in_ms: delayMs, attempt: this.backoff.attempt });
    this.reconnectTimer = this.timers.setTimeout(() => {
      if (this.currentState !== "stopped") this.connect();
    }, delayMs);
  }

  /** Merges the control planes a RegisterAck names into the list, the current one first. */
  private learnServerUrls(session: Session, announced: readonly string[]): void {
    const merged = this.rotation.learn(session.serverUrl, announced);
    if (merged === null) return;
    this.options.logger.info("control planes", { servers: merged.join(",") });
    this.options.onServerUrls?.(merged);
  }

  private send(session: Session, init: EnvelopeInit): void {
    if (session.socket.readyState !== WebSocket.OPEN) return;
    session.socket.send(encodeEnvelope(init), { binary: true });
  }

  private nextRequestId(prefix: string): string {
    this.requestCounter++;
    return `${prefix}-${this.requestCounter}`;
  }
}
