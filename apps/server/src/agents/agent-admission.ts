// What a socket on the agent port may cost before it has registered. Anyone who can reach the
// port can open sockets (and any node may misbehave), so until a Register is accepted a socket
// gets one small frame (which must be that Register), a small byte budget, ten seconds, and a
// place among a few unregistered sockets from its address; past any of them it is closed.
// Registered agents are not counted, so many nodes behind one NAT address only meet the cap while
// they reconnect at once.
import type { Socket } from "node:net";

/** The first frame must be a Register; a real one is a few KiB (8 GPUs ≈ 1.3 KiB, 256 ≈ 34 KiB). */
export const REGISTER_FRAME_BYTES_MAX = 64 * 1024;
/** Bytes read from a socket before its Register is accepted: that frame, its header, a ping. */
export const PRE_REGISTER_BYTES_MAX = REGISTER_FRAME_BYTES_MAX + 4 * 1024;
/** How long a new socket may take, from its TCP connection, to be registered. */
export const REGISTER_TIMEOUT_MS = 10_000;
/** How long a socket the server closes has to take its close frame before it is cut. */
export const CLOSE_GRACE_MS = 1_000;
/** What a refused upgrade is told to wait; slots free as sockets register or close. */
const RETRY_AFTER_S = 5;

/** One TCP connection on the agent port, from accept until it registers or closes. */
export interface PendingSocket {
  readonly address: string;
  readonly isOverCap: boolean;
  /** What the register timer does; a WebSocket replaces it with a close that says why. */
  onTimeout(): void;
  /** Called once when Register is accepted: the socket leaves the count and its timer stops. */
  admit(): void;
}

export class AgentAdmission {
  private readonly unregisteredByAddress = new Map<string, number>();
  private readonly pending = new WeakMap<Socket, PendingSocket>();

  constructor(readonly unregisteredPerAddressMax: number) {}

  /** Counts a new TCP connection against its address and starts its register timer. */
  accept(socket: Socket): PendingSocket {
    const address = socket.remoteAddress ?? "";
    const count = (this.unregisteredByAddress.get(address) ?? 0) + 1;
    this.unregisteredByAddress.set(address, count);
    let isCounted = true;
    // Dropped once cleared: a registered socket's entry lives as long as the socket.
    let timer: NodeJS.Timeout | undefined;
    const leave = () => {
      if (!isCounted) return;
      isCounted = false;
      clearTimeout(timer);
      timer = undefined;
      this.release(address);
    };
    const entry: PendingSocket = {
      address,
      isOverCap: count > this.unregisteredPerAddressMax,
      onTimeout: () => socket.destroy(),
      admit: leave,
    };
    timer = setTimeout(() => entry.onTimeout(), REGISTER_TIMEOUT_MS);
    timer.unref();
    socket.once("close", leave);
    this.pending.set(socket, entry);
    return entry;
  }

  find(socket: Socket): PendingSocket | undefined {
    return this.pending.get(socket);
  }

  unregisteredFrom(address: string): number {
    return this.unregisteredByAddress.get(address) ?? 0;
  }

  /** The answer to an upgrade over the cap: says what the limit is and how to raise it. */
  refusal(address: string) {
    return {
      status: 429,
      message:
        `${this.unregisteredFrom(address)} sockets from ${address} are waiting to register ` +
        `(at most ${this.unregisteredPerAddressMax}; LLMGW_AGENT_UNREGISTERED_PER_ADDRESS raises it)`,
      headers: { "retry-after": String(RETRY_AFTER_S) },
    };
  }

  private release(address: string): void {
    const left = (this.unregisteredByAddress.get(address) ?? 1) - 1;
    if (left <= 0) this.unregisteredByAddress.delete(address);
    else this.unregisteredByAddress.set(address, left);
  }
}

/**
 * Counts what an unregistered socket sends, ahead of the WebSocket parser, and calls `overBudget`
 * once past PRE_REGISTER_BYTES_MAX and `overAgain` for anything after that. Returns the function
 * that stops counting (called when Register is accepted).
 */
export function meterPreRegister(
  socket: Socket,
  overBudget: () => void,
  overAgain: () => void,
): () => void {
  let bytesRead = 0;
  let isOver = false;
  const onData = (chunk: Buffer) => {
    bytesRead += chunk.length;
    if (bytesRead <= PRE_REGISTER_BYTES_MAX) return;
    if (isOver) return overAgain();
    isOver = true;
    overBudget();
  };
  socket.prependListener("data", onData);
  return () => socket.off("data", onData);
}

/** A log line that at most once per interval names what happened and how often since. */
export function throttledLog(log: (line: string) => void, intervalMs: number, nowMs: () => number) {
  let lastAtMs = -Infinity;
  let skipped = 0;
  return (line: string) => {
    if (nowMs() - lastAtMs < intervalMs) {
      skipped += 1;
      return;
    }
    lastAtMs = nowMs();
    log(skipped ? `${line} (and ${skipped} more like it since the last line)` : line);
    skipped = 0;
  };
}

/**
 * Passes at most `limit` lines per interval; past that, counts them and says how many were left
 * out once the interval ends. A fleet reconnecting at once logs a few lines and a count, not 4,000
 * lines: a blocked stdout (a slow reader on its pipe) stalled the whole server.
 */
export function burstLimitedLog(
  log: (line: string) => void,
  options: { limit: number; intervalMs: number; what: string },
  nowMs: () => number,
) {
  let windowStartMs = -Infinity;
  let used = 0;
  let skipped = 0;
  const summarize = () => {
    if (skipped > 0)
      log(
        `${skipped} more lines like these (${options.what}) left out in ${options.intervalMs} ms`,
      );
    skipped = 0;
  };
  return (line: string) => {
    if (nowMs() - windowStartMs >= options.intervalMs) {
      summarize();
      windowStartMs = nowMs();
      used = 0;
    }
    if (used < options.limit) {
      used += 1;
      return log(line);
    }
    if (skipped === 0) setTimeout(summarize, options.intervalMs).unref();
    skipped += 1;
  };
}
