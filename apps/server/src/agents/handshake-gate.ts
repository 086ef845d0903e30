// How the agent port lets a reconnect storm in: at most a few TLS handshakes run at once, and the
// TCP connections past them wait their turn (paused: no TLS work, no bytes read) instead of being
// closed. Closing them (session 4) made each refused agent wait out a growing backoff: 715 of a
// 2,000-agent storm's dials were closed that way and the last agent came back after 101 s.

/**
 * TLS handshakes the agent port runs at once. Without a limit a reconnect storm ran every handshake
 * at once: each shared the CPU with all the others, none finished within the 10 s handshake window on
 * a loaded machine, and every agent started again (0 of 500 back within 10 s).
 */
export const HANDSHAKES_AT_ONCE_MAX = 64;
/** Connections that may wait for a handshake place; one past it is closed (a flood, not a fleet). */
const HANDSHAKE_QUEUE_MAX = 20_000;
/**
 * How long a connection may wait for its place. An agent gives up on a dial after 10 s, so one that
 * waited longer than this would not finish its handshake in time: it is closed instead, and dials
 * again after its backoff.
 */
const HANDSHAKE_QUEUE_WAIT_MS = 6_000;

/** The TCP side of a connection, as the gate sees it. */
export interface GateSocket {
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
  readonly destroyed: boolean;
  once(event: "close", listener: () => void): unknown;
  destroy(): void;
}

export interface HandshakeGateOptions {
  /** Handshakes at once (HANDSHAKES_AT_ONCE_MAX). */
  max: number;
  /** Starts the TLS handshake of a connection let in. */
  start(socket: GateSocket): void;
  queueMax?: number;
  queueWaitMs?: number;
  nowMs(): number;
}

/** What became of a new connection. */
export type GateAnswer = "started" | "queued" | "refused";

/**
 * Admits at most `max` TLS handshakes at once: `connected` is given each new TCP connection,
 * `handshaken` each socket whose handshake finished; a place freed lets the longest-waiting
 * connection in, and one that waited past `queueWaitMs` is closed instead.
 */
export class HandshakeGate {
  private readonly inFlight = new Set<string>();
  private readonly waiting: Array<{ socket: GateSocket; sinceMs: number }> = [];
  private waitingFrom = 0;
  /** Connections closed for the queue: it was full, or they waited too long. */
  refused = 0;

  constructor(private readonly options: HandshakeGateOptions) {}

  get max(): number {
    return this.options.max;
  }

  get handshaking(): number {
    return this.inFlight.size;
  }

  get queued(): number {
    return this.waiting.length - this.waitingFrom;
  }

  connected(socket: GateSocket): GateAnswer {
    if (this.inFlight.size < this.options.max && this.queued === 0) {
      this.begin(socket);
      return "started";
    }
    if (this.queued >= (this.options.queueMax ?? HANDSHAKE_QUEUE_MAX)) {
      this.refused += 1;
      socket.destroy();
      return "refused";
    }
    this.waiting.push({ socket, sinceMs: this.options.nowMs() });
    return "queued";
  }

  handshaken(socket: Pick<GateSocket, "remoteAddress" | "remotePort">): void {
    if (this.inFlight.delete(keyOf(socket))) this.next();
  }

  private begin(socket: GateSocket): void {
    const key = keyOf(socket);
    this.inFlight.add(key);
    socket.once("close", () => {
      if (this.inFlight.delete(key)) this.next();
    });
    this.options.start(socket);
  }

  /** Lets waiting connections in while there is room; closes those that waited too long. */
  private next(): void {
    const waitMs = this.options.queueWaitMs ?? HANDSHAKE_QUEUE_WAIT_MS;
    while (this.inFlight.size < this.options.max && this.queued > 0) {
      const entry = this.waiting[this.waitingFrom];
      this.waitingFrom += 1;
      if (!entry || entry.socket.destroyed) continue;
      if (this.options.nowMs() - entry.sinceMs > waitMs) {
        this.refused += 1;
        entry.socket.destroy();
        continue;
      }
      this.begin(entry.socket);
    }
    // The array is compacted once its served head outgrows what still waits.
    if (this.waitingFrom > 1024 && this.waitingFrom * 2 > this.waiting.length) {
      this.waiting.splice(0, this.waitingFrom);
      this.waitingFrom = 0;
    }
  }
}

const keyOf = (socket: Pick<GateSocket, "remoteAddress" | "remotePort">) =>
  `${socket.remoteAddress ?? ""}|${socket.remotePort ?? 0}`;
