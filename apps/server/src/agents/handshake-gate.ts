// How the agent port lets a reconnect storm in: at most a few TLS handshakes run at once, and the
// TCP connections past them wait their turn (paused: no TLS work, no bytes read) instead of being
// closed. Closing them (session 4) made each refused agent wait out a growing backoff: 715 of a
// 2,000-agent storm's dials were closed that way and the last agent came back after 101 s.
//
// The places are shared fairly between addresses (issue 19): before, anyone could open 64 TCP
// connections, send nothing, and hold every place for the whole 10 s handshake window, again and
// again, while real agents waiting behind them were closed after 6 s. Now the next place goes to
// the waiting address with the fewest handshakes in flight (round-robin among equals), and while
// an address waits, one holding more places than it has its oldest handshake cut once that has run
// past HANDSHAKE_CONTESTED_MS. A fleet behind one NAT address still gets every place when no other
// address waits.

/**
 * TLS handshakes the agent port runs at once. Without a limit a reconnect storm ran every handshake
 * at once: each shared the CPU with all the others, none finished within the 10 s handshake window on
 * a loaded machine, and every agent started again (0 of 500 back within 10 s).
 */
export const HANDSHAKES_AT_ONCE_MAX = 64;
/** Connections that may wait for a handshake place; past it the largest address gives one up. */
const HANDSHAKE_QUEUE_MAX = 20_000;
/**
 * How long a connection may wait for its place. An agent gives up on a dial after 10 s, so one that
 * waited longer than this would not finish its handshake in time: it is closed instead, and dials
 * again after its backoff.
 */
const HANDSHAKE_QUEUE_WAIT_MS = 6_000;
/**
 * How long a handshake may hold a place that another address waits for, when its own address holds
 * more places than the waiting one. A handshake takes milliseconds, and well under a second with 64
 * at once on a loaded machine; one still running after 2 s is a stalled peer (or one of many from a
 * single address, which can spare it). The waiting agent gets its place within this, well inside
 * the 6 s it may wait.
 */
export const HANDSHAKE_CONTESTED_MS = 2_000;

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
  /** Starts the TLS handshake of a connection let in, `waitedMs` after it arrived. */
  start(socket: GateSocket, waitedMs: number): void;
  queueMax?: number;
  queueWaitMs?: number;
  contestedMs?: number;
  nowMs(): number;
  /** A handshake was cut for a waiting address (`reclaim`), to be logged and counted. */
  onCut?(address: string): void;
  /** Calls `callback` after `delayMs` (a timer that does not keep the process alive). */
  later?(callback: () => void, delayMs: number): void;
}

/** What became of a new connection. */
export type GateAnswer = "started" | "queued" | "refused";

interface Handshake {
  socket: GateSocket;
  address: string;
  startedMs: number;
}

interface Waiting {
  socket: GateSocket;
  sinceMs: number;
}

/**
 * Admits at most `max` TLS handshakes at once: `connected` is given each new TCP connection,
 * `handshaken` each socket whose handshake finished; a place freed goes to the waiting address with
 * the fewest handshakes in flight, and a connection that waited past `queueWaitMs` is closed instead.
 */
export class HandshakeGate {
  /** Handshakes in flight by socket key, oldest first. */
  private readonly inFlight = new Map<string, Handshake>();
  private readonly inFlightByAddress = new Map<string, number>();
  private readonly waiting = new Map<string, Fifo<Waiting>>();
  /** Waiting addresses by their handshakes in flight; a Set's order makes equals round-robin. */
  private readonly byInFlight: Array<Set<string>> = [];
  private queuedTotal = 0;
  private isReclaimArmed = false;
  /** Connections closed for the queue: it was full, or they waited too long. */
  refused = 0;
  /** Handshakes cut because they held a place another address waited for (a stalled peer). */
  cut = 0;

  constructor(private readonly options: HandshakeGateOptions) {}

  get max(): number {
    return this.options.max;
  }

  get handshaking(): number {
    return this.inFlight.size;
  }

  get queued(): number {
    return this.queuedTotal;
  }

  connected(socket: GateSocket): GateAnswer {
    const address = socket.remoteAddress ?? "";
    if (this.inFlight.size < this.options.max && this.queuedTotal === 0) {
      this.begin(socket, address);
      return "started";
    }
    if (this.queuedTotal >= (this.options.queueMax ?? HANDSHAKE_QUEUE_MAX)) {
      if (!this.evictForRoom(address)) {
        this.refused += 1;
        socket.destroy();
        return "refused";
      }
    }
    this.enqueue(address, { socket, sinceMs: this.options.nowMs() });
    this.reclaim();
    return "queued";
  }

  handshaken(socket: Pick<GateSocket, "remoteAddress" | "remotePort">): void {
    this.finish(keyOf(socket));
  }

  private begin(socket: GateSocket, address: string, arrivedMs?: number): void {
    const key = keyOf(socket);
    const startedMs = this.options.nowMs();
    this.inFlight.set(key, { socket, address, startedMs });
    this.count(address, +1);
    socket.once("close", () => this.finish(key));
    this.options.start(socket, startedMs - (arrivedMs ?? startedMs));
  }

  private finish(key: string): void {
    const handshake = this.inFlight.get(key);
    if (!handshake) return;
    this.inFlight.delete(key);
    this.count(handshake.address, -1);
    this.next();
  }

  /** Lets waiting connections in while there is room; closes those that waited too long. */
  private next(): void {
    const waitMs = this.options.queueWaitMs ?? HANDSHAKE_QUEUE_WAIT_MS;
    while (this.inFlight.size < this.options.max) {
      const address = this.nextAddress();
      if (address === undefined) return;
      const entry = this.dequeue(address, "oldest");
      if (!entry || entry.socket.destroyed) continue;
      if (this.options.nowMs() - entry.sinceMs > waitMs) {
        this.refused += 1;
        entry.socket.destroy();
        continue;
      }
      this.begin(entry.socket, address, entry.sinceMs);
    }
  }

  /**
   * While every place is taken and an address waits that holds fewer places than another, cuts that
   * other's oldest handshake once it has run past `contestedMs`, or looks again when it will have.
   */
  private reclaim(): void {
    const contestedMs = this.options.contestedMs ?? HANDSHAKE_CONTESTED_MS;
    while (this.inFlight.size >= this.options.max) {
      const waiter = this.nextAddress();
      if (waiter === undefined) return;
      const oldest = this.oldestOfLargest(this.inFlightOf(waiter) + 1);
      if (!oldest) return;
      const [key, handshake] = oldest;
      const dueInMs = handshake.startedMs + contestedMs - this.options.nowMs();
      if (dueInMs > 0) return this.reclaimIn(dueInMs);
      this.inFlight.delete(key);
      this.count(handshake.address, -1);
      this.cut += 1;
      handshake.socket.destroy();
      this.options.onCut?.(handshake.address);
      this.next();
    }
  }

  private reclaimIn(delayMs: number): void {
    if (this.isReclaimArmed) return;
    this.isReclaimArmed = true;
    const later = this.options.later ?? ((callback, ms) => setTimeout(callback, ms).unref());
    later(() => {
      this.isReclaimArmed = false;
      this.reclaim();
    }, delayMs);
  }

  /** The oldest handshake of the address holding the most places, if it holds more than `than`. */
  private oldestOfLargest(than: number): [string, Handshake] | undefined {
    let largest: string | undefined;
    for (const [address, count] of this.inFlightByAddress)
      if (count > than && (largest === undefined || count > this.inFlightOf(largest)))
        largest = address;
    if (largest === undefined) return undefined;
    for (const entry of this.inFlight) if (entry[1].address === largest) return entry;
    return undefined;
  }

  /** The waiting address with the fewest handshakes in flight; the first of equals. */
  private nextAddress(): string | undefined {
    for (const addresses of this.byInFlight) for (const address of addresses ?? []) return address;
    return undefined;
  }

  /** A full queue makes room when the newcomer's address waits with fewer than the largest. */
  private evictForRoom(address: string): boolean {
    let largest: string | undefined;
    let largestSize = (this.waiting.get(address)?.size ?? 0) + 1;
    for (const [other, queue] of this.waiting)
      if (queue.size > largestSize) [largest, largestSize] = [other, queue.size];
    if (largest === undefined) return false;
    this.refused += 1;
    this.dequeue(largest, "newest")?.socket.destroy();
    return true;
  }

  private enqueue(address: string, entry: Waiting): void {
    let queue = this.waiting.get(address);
    if (!queue) {
      queue = new Fifo();
      this.waiting.set(address, queue);
      this.bucket(this.inFlightOf(address)).add(address);
    }
    queue.push(entry);
    this.queuedTotal += 1;
  }

  private dequeue(address: string, end: "oldest" | "newest"): Waiting | undefined {
    const queue = this.waiting.get(address);
    const entry = end === "oldest" ? queue?.shift() : queue?.pop();
    if (entry) this.queuedTotal -= 1;
    if (queue?.size === 0) {
      this.waiting.delete(address);
      this.bucket(this.inFlightOf(address)).delete(address);
    }
    return entry;
  }

  private count(address: string, delta: number): void {
    const before = this.inFlightOf(address);
    const after = before + delta;
    if (after === 0) this.inFlightByAddress.delete(address);
    else this.inFlightByAddress.set(address, after);
    if (!this.waiting.has(address)) return;
    this.bucket(before).delete(address);
    this.bucket(after).add(address);
  }

  private inFlightOf(address: string): number {
    return this.inFlightByAddress.get(address) ?? 0;
  }

  private bucket(inFlight: number): Set<string> {
    const bucket = this.byInFlight[inFlight] ?? new Set<string>();
    this.byInFlight[inFlight] = bucket;
    return bucket;
  }
}

/** A queue whose served head is dropped once it outgrows what still waits. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.items[this.head];
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  pop(): T | undefined {
    return this.size === 0 ? undefined : this.items.pop();
  }
}

const keyOf = (socket: Pick<GateSocket, "remoteAddress" | "remotePort">) =>
  `${socket.remoteAddress ?? ""}|${socket.remotePort ?? 0}`;
