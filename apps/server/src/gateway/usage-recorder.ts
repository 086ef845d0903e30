// Usage rows collected in memory and written in batches off the request path. While the store is
// away they wait in a bounded queue (store-queue.ts) and are written, in order and once each, when
// it returns; only past the bound are new rows dropped, logged and counted.
import { messageOf } from "@llmgw/domain";
import type { Database, NewUsageRecord } from "@llmgw/db";
import { jsonStatement, recordset } from "../json-recordset";
import { StoreQueue } from "../store-queue";
import { insertUsageRecords } from "./usage-insert";

const FLUSH_EVERY_MS = 1_000;
/**
 * PGlite inserts a batch on the requests' own thread without yielding (about 13 µs of CPU a row by
 * COPY, usage-insert.ts): 200 rows hold it for a few milliseconds, and the requests get their turns
 * between batches.
 */
const BATCH_MAX = 200;
/** A key's last use is noted at most this often: it is advisory, and each note writes its row. */
const TOUCH_EVERY_MS = 1_000;
/** Past this many keys the notes' memory is cleared (the next batch of each key notes it again). */
const TOUCHED_KEYS_MAX = 10_000;
/** About 30 MB of rows: minutes of heavy traffic with the store away. */
const USAGE_PENDING_MAX = 100_000;

/**
 * The last use of every key a batch notes, in one statement: on PGlite each statement costs about
 * 0.3 ms whatever it does, which an UPDATE per key paid once per key and second.
 */
const TOUCH = jsonStatement(
  `UPDATE api_keys SET last_used_at = r."at" FROM ${recordset([
    ["id", "id", "text"],
    ["at", "at", "timestamptz"],
  ])} WHERE api_keys.id = r."id"`,
);

export class UsageRecorder {
  readonly queue: StoreQueue<NewUsageRecord>;
  /** The last use noted for each key, so a busy key is not updated once a batch. */
  private readonly touchedAtMs = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new StoreQueue({
      what: "usage records",
      write: (batch) => this.write(batch),
      retryEveryMs: FLUSH_EVERY_MS,
      batchMax: BATCH_MAX,
      pendingMax: USAGE_PENDING_MAX,
      log,
    });
  }

  record(row: NewUsageRecord): void {
    this.queue.add(row);
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }

  async stop(): Promise<void> {
    await this.queue.stop();
  }

  private async write(batch: NewUsageRecord[]): Promise<void> {
    await insertUsageRecords(this.db, batch);
    // The rows are in: a failure from here on must not write them a second time. A key's last use
    // is advisory, so it is only logged; the next batch of that key sets it again.
    try {
      await this.touchKeys(batch);
    } catch (error) {
      this.log(`could not note the keys' last use: ${messageOf(error)}`);
    }
  }

  private async touchKeys(batch: readonly NewUsageRecord[]): Promise<void> {
    const lastByKey = new Map<string, Date>();
    for (const row of batch) {
      const seen = lastByKey.get(row.keyId);
      if (!seen || seen < row.at) lastByKey.set(row.keyId, row.at);
    }
    if (this.touchedAtMs.size > TOUCHED_KEYS_MAX) this.touchedAtMs.clear();
    const due: { id: string; at: Date }[] = [];
    for (const [id, at] of lastByKey) {
      const touchedMs = this.touchedAtMs.get(id);
      if (touchedMs === undefined || at.getTime() - touchedMs >= TOUCH_EVERY_MS)
        due.push({ id, at });
    }
    if (due.length === 0) return;
    await this.db.execute(TOUCH(due));
    for (const { id, at } of due) this.touchedAtMs.set(id, at.getTime());
  }
}
