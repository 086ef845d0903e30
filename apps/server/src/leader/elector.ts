// Keeps this process's claim on a leader lease: claims at start, renews every third of the lease,
// and tells listeners when leadership comes or goes. Store errors are treated asymmetrically on
// purpose: a leader keeps leading while the store is out of reach (a database blip must not stop
// healing), and a standby that saw the store out of reach waits one renew round after it returns
// before claiming, so the leader gets the first chance to renew a lease that lapsed meanwhile.
import { randomUUID } from "node:crypto";
import { messageOf } from "@llmgw/domain";
import type { LeaseState, LeaseStore } from "./lease";

export interface LeaderElectorOptions {
  store: LeaseStore;
  /** host:port or a label, shown to humans as the holder. */
  ownerName: string;
  leaseMs: number;
  log: (line: string) => void;
  name?: string;
  /** Tests only: a fixed owner id instead of a random one. */
  owner?: string;
  /** Tests only: the monotonic clock (default performance.now), to play a frozen process. */
  monotonicMs?: () => number;
}

const CONTROL_PLANE_LEASE = "control-plane";

type Listener = (leading: boolean) => void;

export class LeaderElector {
  readonly owner: string;
  readonly name: string;
  readonly renewIntervalMs: number;
  private leading = false;
  private last: LeaseState | undefined;
  /** A standby that saw the store out of reach probes it before claiming again. */
  private standbySawOutage = false;
  private storeUnreachable = false;
  /** When a claim last came back ours (monotonic ms); a gap longer than a round means we slept. */
  private lastWonAtMs = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;
  private readonly listeners = new Set<Listener>();

  private readonly monotonicMs: () => number;

  constructor(private readonly options: LeaderElectorOptions) {
    this.monotonicMs = options.monotonicMs ?? (() => performance.now());
    this.owner = options.owner ?? randomUUID();
    this.name = options.name ?? CONTROL_PLANE_LEASE;
    this.renewIntervalMs = Math.max(1, Math.floor(options.leaseMs / 3));
  }

  /** Claims now and then every renew interval until stop(). */
  start(): void {
    if (this.timer || this.stopped) return;
    void this.round();
    this.timer = setInterval(() => void this.round(), this.renewIntervalMs);
    this.timer.unref();
  }

  get ownerName(): string {
    return this.options.ownerName;
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Whether this process may act as leader now. A leader whose last won claim is older than two
   * renew rounds (its process was frozen, or its timers starved) asks the store again first, so
   * it never acts on a lease that lapsed while it was not looking. A store out of reach keeps the
   * claim (a database blip must not stop healing).
   */
  async confirm(): Promise<boolean> {
    if (!this.leading || this.stopped) return false;
    if (this.monotonicMs() - this.lastWonAtMs <= 2 * this.renewIntervalMs) return true;
    await this.round();
    return this.leading && !this.stopped;
  }

  /** The lease as last read from the store (ours or another's); undefined before the first. */
  lease(): LeaseState | undefined {
    return this.last;
  }

  /** Calls back on each change of leadership; returns the unsubscribe. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One claim or renewal; rounds never overlap (a hung store must not pile them up). */
  round(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.inFlight ??= this.claimOnce().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /**
   * Stops renewing and, if the lease is ours, releases it so a standby takes over at once. Waits
   * for a hung store at most one renew interval per step: the lease then simply expires.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.bounded(this.inFlight);
    // A round that won while we were stopping left `leading` unset but the row ours.
    if (this.leading || this.last?.owner === this.owner) {
      const released = this.options.store.release(this.name, this.owner);
      await this.bounded(released).catch((error: unknown) => {
        this.options.log(`leader lease: could not release (${messageOf(error)}); it will expire`);
      });
    }
    this.setLeading(false);
  }

  private async bounded(work: Promise<unknown> | undefined): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>(
      (resolve) => (timer = setTimeout(resolve, this.renewIntervalMs)),
    );
    await Promise.race([work, gaveUp]).finally(() => clearTimeout(timer));
  }

  private async claimOnce(): Promise<void> {
    const { store, ownerName, leaseMs } = this.options;
    try {
      if (!this.leading && this.standbySawOutage) {
        await store.peek(this.name);
        this.standbySawOutage = false;
        this.storeReachable();
        return; // the leader's turn to renew; we claim next round
      }
      const state = await store.claim({ name: this.name, owner: this.owner, ownerName, leaseMs });
      this.storeReachable();
      this.last = state;
      if (state.isLeader) this.lastWonAtMs = this.monotonicMs();
      if (this.stopped) return;
      this.setLeading(state.isLeader);
    } catch (error) {
      this.storeOutOfReach(error);
    }
  }

  private storeOutOfReach(error: unknown): void {
    if (!this.leading) this.standbySawOutage = true;
    if (this.storeUnreachable) return;
    this.storeUnreachable = true;
    const role = this.leading ? "keeps leading" : "stands by";
    this.options.log(`leader lease: store out of reach (${messageOf(error)}); ${role}`);
  }

  private storeReachable(): void {
    if (!this.storeUnreachable) return;
    this.storeUnreachable = false;
    this.options.log("leader lease: store reachable again");
  }

  private setLeading(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    const holder =
      this.last && this.last.owner !== this.owner ? ` (held by ${this.last.ownerName})` : "";
    this.options.log(leading ? "leader lease: leading" : `leader lease: standing by${holder}`);
    for (const listener of this.listeners) listener(leading);
  }
}
