// The /v1 key lookup's memory of the store's answers, by key prefix. A fresh answer (under 5 s) is
// used as is; in its last second a request still uses it but sends a lookup to the store in the
// background, so a key in steady use is renewed before it goes stale and no request waits on the
// store for it. An older one sends a lookup to the store but waits for it only briefly: a store that
// is restarting, failing over or slow must not hold every request, so past the short wait (or on an
// unreachable store) the older answer stands, up to staleMaxMs after it came. A store that answers
// in time always wins, so once it is reachable a revocation made anywhere takes effect within
// freshMs. Lookups of one prefix share one query: an outage does not pile queries up in the pool.
import { isStoreAway } from "../store-queue";

export interface KeyCacheOptions {
  /** An answer younger than this is used without asking the store. */
  freshMs: number;
  /** A fresh answer older than this is renewed in the background while it is still used. */
  renewAfterMs: number;
  /** While the store does not answer, an answer is trusted at most this long after it came. */
  staleMaxMs: number;
  /** How long a request with an older answer in hand waits for the store before using it. */
  waitMs: number;
  /** How long a request with no usable answer waits for the store before it is refused. */
  lookupMaxMs: number;
  /** Prefixes remembered at most, known keys and unknown ones alike. */
  entriesMax: number;
}

export const KEY_CACHE_DEFAULTS: KeyCacheOptions = {
  freshMs: 5_000,
  renewAfterMs: 4_000,
  staleMaxMs: 10 * 60_000,
  waitMs: 250,
  lookupMaxMs: 5_000,
  entriesMax: 10_000,
};

type Entry<Row> = { row: Row | undefined; loadedAtMs: number };
type Settled<Row> = { row: Row | undefined } | { error: unknown };

/** Thrown when the store did not answer a lookup that had nothing to fall back on in time. */
class LookupTimeout extends Error {
  readonly code = "ETIMEDOUT";
}

export class KeyCache<Row> {
  private readonly entries = new Map<string, Entry<Row>>();
  private readonly loading = new Map<
    string,
    { settled: Promise<Settled<Row>>; startedMs: number }
  >();
  /** Counts drops: a lookup that was running when a prefix was dropped is not remembered. */
  private drops = 0;

  constructor(
    private readonly load: (prefix: string) => Promise<Row | undefined>,
    private readonly nowMs: () => number,
    private readonly options: KeyCacheOptions = KEY_CACHE_DEFAULTS,
  ) {}

  async get(prefix: string): Promise<Row | undefined> {
    const hit = this.entries.get(prefix);
    const ageMs = hit ? this.nowMs() - hit.loadedAtMs : Infinity;
    if (hit && ageMs < this.options.freshMs) {
      if (ageMs >= this.options.renewAfterMs) void this.lookup(prefix);
      return hit.row;
    }
    const usable = hit && ageMs < this.options.staleMaxMs ? hit : undefined;
    const waitMs = usable ? this.options.waitMs : this.options.lookupMaxMs;
    const settled = await Promise.race([
      this.lookup(prefix),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs).unref()),
    ]);
    if (settled === null) {
      if (usable) return usable.row;
      throw new LookupTimeout(`the store did not answer a key lookup within ${waitMs} ms`);
    }
    if ("row" in settled) return settled.row;
    if (usable && isStoreAway(settled.error)) return usable.row;
    throw settled.error;
  }

  /**
   * Forgets a prefix's answer (a revocation made here), and any lookup of it still running: that
   * may have read the row before the change, and must not bring it back.
   */
  drop(prefix: string): void {
    this.entries.delete(prefix);
    this.loading.delete(prefix);
    this.drops += 1;
  }

  private lookup(prefix: string): Promise<Settled<Row>> {
    const running = this.loading.get(prefix);
    // A query the store never answered is not waited on for ever: past lookupMaxMs, a new one.
    if (running && Date.now() - running.startedMs < this.options.lookupMaxMs)
      return running.settled;
    const dropsBefore = this.drops;
    // An answer is as old as the question: the store may have changed while it was on its way.
    const askedAtMs = this.nowMs();
    const started = this.load(prefix).then(
      (row): Settled<Row> => {
        if (this.drops === dropsBefore) this.remember(prefix, row, askedAtMs);
        return { row };
      },
      (error: unknown): Settled<Row> => ({ error }),
    );
    const shared = started.finally(() => {
      if (this.loading.get(prefix)?.settled === shared) this.loading.delete(prefix);
    });
    this.loading.set(prefix, { settled: shared, startedMs: Date.now() });
    return shared;
  }

  private remember(prefix: string, row: Row | undefined, askedAtMs: number): void {
    this.entries.delete(prefix);
    this.entries.set(prefix, { row, loadedAtMs: askedAtMs });
    // Map order is insertion order: the first entry is the one loaded longest ago.
    const oldest = this.entries.keys().next();
    if (this.entries.size > this.options.entriesMax && !oldest.done)
      this.entries.delete(oldest.value);
  }
}
