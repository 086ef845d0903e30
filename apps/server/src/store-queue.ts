// Rows the server writes after the fact (usage records, audit rows, events) must survive the store
// being away for a while: a restart of PostgreSQL, a failover of its primary. A StoreQueue keeps
// them in memory, in order, and writes them in batches; a batch that fails stays at the head and is
// tried again on the next round, so every row is written once and in the order it was queued. The
// queue is bounded: past `pendingMax` a new row is dropped (the older ones are kept, still in
// order), each drop counted and the first of a run logged, so an outage that outlasts the bound is
// seen rather than silently eating memory. A batch the store refuses (not an outage: the statement
// itself) five times running is dropped the same way, so one bad row cannot hold up the rest.
import { messageOf } from "@llmgw/domain";

/** Refusals in a row (not outages) after which a batch can never be written and is dropped. */
const REFUSALS_MAX = 5;
/** Written rows kept at the array's front before it is compacted (and then only past half of it). */
const COMPACT_AFTER = 4_096;

export interface StoreQueueOptions<Row> {
  /** What the rows are, for the log: "usage records", "audit rows". */
  what: string;
  /** Writes one batch in one statement: all of it or none. */
  write(batch: Row[]): Promise<void>;
  /** Tries again this often while rows wait; 0 for no timer (flush() by hand, in tests). */
  retryEveryMs: number;
  batchMax: number;
  pendingMax: number;
  log(line: string): void;
}

export class StoreQueue<Row> {
  // Rows before `head` are written: a batch moves the head instead of copying what waits behind it,
  // which after a long outage (up to pendingMax rows) made draining quadratic.
  private pending: Row[] = [];
  private head = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout | null;
  private droppedTotal = 0;
  private isDropping = false;
  private isFailing = false;
  private refusals = 0;

  constructor(private readonly options: StoreQueueOptions<Row>) {
    this.timer =
      options.retryEveryMs > 0 ? setInterval(() => void this.flush(), options.retryEveryMs) : null;
    this.timer?.unref();
  }

  /** Queues a row; false when the queue is full and the row was dropped. */
  add(row: Row): boolean {
    if (this.size() >= this.options.pendingMax) {
      this.droppedTotal += 1;
      if (!this.isDropping)
        this.options.log(
          `${this.options.what}: ${this.options.pendingMax} already wait for the store; dropping new ones until it takes them`,
        );
      this.isDropping = true;
      return false;
    }
    this.pending.push(row);
    return true;
  }

  /** Rows waiting for the store. */
  size(): number {
    return this.pending.length - this.head;
  }

  /** Rows dropped because the queue was full, since start. */
  dropped(): number {
    return this.droppedTotal;
  }

  /** Writes what waits, batch by batch, stopping at the first failure (tried again later). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeAll());
    return this.writing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private async writeAll(): Promise<void> {
    while (this.size() > 0) {
      const batch = this.pending.slice(this.head, this.head + this.options.batchMax);
      try {
        await this.options.write(batch);
      } catch (error) {
        if (this.refusedOnce(error, batch.length)) continue;
        return;
      }
      this.taken(batch.length);
      if (this.isFailing) this.options.log(`${this.options.what}: the store takes them again`);
      this.isFailing = false;
      this.isDropping = false;
      this.refusals = 0;
      // A store on this thread (PGlite) runs each batch without yielding: the requests waiting
      // for it get their turns between batches, not only after the last one.
      if (this.size() > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** The first `count` waiting rows are done with (written or dropped). */
  private taken(count: number): void {
    this.head += count;
    if (this.head === this.pending.length) {
      this.pending = [];
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.pending.length) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Notes a failed batch. The store out of reach: kept, tried again later (false). The store
   * refusing the statement itself, REFUSALS_MAX times running: no wait will help, so the batch is
   * dropped (logged, counted) and the rows behind it go on (true).
   */
  private refusedOnce(error: unknown, batchSize: number): boolean {
    const away = isStoreAway(error);
    this.refusals = away ? 0 : this.refusals + 1;
    if (this.refusals >= REFUSALS_MAX) {
      this.options.log(
        `dropped ${batchSize} ${this.options.what} the store refused ${REFUSALS_MAX} times: ${messageOf(error)}`,
      );
      this.taken(batchSize);
      this.droppedTotal += batchSize;
      this.refusals = 0;
      return true;
    }
    if (!this.isFailing)
      this.options.log(
        `could not save ${this.size()} ${this.options.what} (kept, tried again until the store takes them): ${messageOf(error)}`,
      );
    this.isFailing = true;
    return false;
  }
}

/** PostgreSQL's own codes for "shutting down", "starting up", "cannot connect now" and the like. */
const AWAY_SQLSTATES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);
/** postgres-js's and Node's codes for a connection that failed or went away. */
const AWAY_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);

/**
 * Whether an error says the store is out of reach (worth waiting for), as opposed to a statement
 * the store refused (which waiting will not fix). Drizzle wraps the driver's error as `cause`.
 */
export function isStoreAway(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at && depth < 4; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && (AWAY_SQLSTATES.has(code) || AWAY_CODES.has(code))) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}
