// Usage rows collected in memory and written in batches off the request path; a failed write is
// logged and the rows are kept for the next try, up to a bound.
import { messageOf } from "@llmgw/domain";
import { apiKeys, eq, usageRecords, type Database, type NewUsageRecord } from "@llmgw/db";

const FLUSH_EVERY_MS = 1_000;
const BATCH_MAX = 500;
const PENDING_MAX = 100_000;

export class UsageRecorder {
  private pending: NewUsageRecord[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly log: (line: string) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  record(row: NewUsageRecord): void {
    if (this.pending.length >= PENDING_MAX) this.pending.shift();
    this.pending.push(row);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeAll());
    return this.flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async writeAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.slice(0, BATCH_MAX);
      try {
        await this.db.insert(usageRecords).values(batch);
        await this.touchKeys(batch);
        this.pending = this.pending.slice(batch.length);
      } catch (error) {
        this.log(
          `could not save ${batch.length} usage records (kept for the next try): ${messageOf(error)}`,
        );
        return;
      }
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
