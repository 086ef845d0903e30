// Audit rows that follow a change already made must not be lost because the store went away just
// after it (a restart of PostgreSQL, a failover): on the server's own database handle such a row
// waits in a bounded queue and is written, in order, when the store returns. Inside a transaction
// nothing is queued: the row fails with the change it records, which is rolled back with it.
import { auditLog, type Database } from "@llmgw/db";
import { StoreQueue } from "../store-queue";

type AuditInsert = typeof auditLog.$inferInsert;

const RETRY_EVERY_MS = 1_000;
const BATCH_MAX = 200;
/** Audit rows come from people's changes, not traffic: ten thousand is hours of an outage. */
const AUDIT_PENDING_MAX = 10_000;

const queues = new WeakMap<object, StoreQueue<AuditInsert>>();

/** From now on, audit rows written through `db` itself wait out an unreachable store. */
export function keepAuditWhileStoreAway(
  db: Database,
  log: (line: string) => void,
): StoreQueue<AuditInsert> {
  const queue = new StoreQueue<AuditInsert>({
    what: "audit rows",
    write: async (batch) => {
      await db.insert(auditLog).values(batch);
    },
    retryEveryMs: RETRY_EVERY_MS,
    batchMax: BATCH_MAX,
    pendingMax: AUDIT_PENDING_MAX,
    log,
  });
  queues.set(db, queue);
  return queue;
}

/** The queue that keeps `writer`'s audit rows, or undefined (a transaction, or none was set up). */
export function auditQueueOf(writer: object): StoreQueue<AuditInsert> | undefined {
  return queues.get(writer);
}
