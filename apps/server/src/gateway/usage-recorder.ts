// Usage rows collected in memory and written in batches off the request path. While the store is
// away they wait in a bounded queue (store-queue.ts) and are written, in order and once each, when
// it returns; only past the bound are new rows dropped, logged and counted.
import { messageOf } from "@llmgw/domain";
import { apiKeys, eq, type Database, type NewUsageRecord } from "@llmgw/db";
import { StoreQueue } from "../store-queue";
import { insertUsageRecords } from "./usage-insert";

const FLUSH_EVERY_MS = 1_000;
const BATCH_MAX = 500;
/** About 30 MB of rows: minutes of heavy traffic with the store away. */
const USAGE_PENDING_MAX = 100_000;

export class UsageRecorder {
  readonly queue: StoreQueue<NewUsageRecord>;

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
    for (const [keyId, at] of lastByKey)
      await this.db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId));
  }
}
