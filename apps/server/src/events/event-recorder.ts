// Records fleet events off the path of whatever noticed them: a call queues the row and returns at
// once; rows are written in order, and while the store is away they wait in a bounded queue
// (store-queue.ts) and go in when it returns. A failure is logged, never thrown at the caller.
// Retention is bounded here too, by age and by count, so the table cannot grow without limit.
import { messageOf } from "@llmgw/domain";
import { events, lt, or, sql, type Database } from "@llmgw/db";
import { StoreQueue } from "../store-queue";
import type { EventKind, EventParams, EventSeverity, EventSubjectType } from "@llmgw/api";

export const EVENTS_KEPT_MAX = 10_000;
export const EVENTS_KEPT_MS = 30 * 86_400_000;
/** Pruning after every insert would double the writes; every so many is enough for a bound. */
const PRUNE_EVERY_INSERTS = 200;
const RETRY_EVERY_MS = 1_000;
/** Events waiting for the store at most; a fleet in trouble makes tens a minute, not thousands. */
const EVENTS_PENDING_MAX = 10_000;

/** How bad each kind is and what it is about; fixed per kind so filters mean the same everywhere. */
const EVENT_KIND_META: Record<
  EventKind,
  { severity: EventSeverity; subjectType: EventSubjectType }
> = {
  "node.unreachable": { severity: "warning", subjectType: "node" },
  "node.lost": { severity: "error", subjectType: "node" },
  "node.back": { severity: "info", subjectType: "node" },
  "node.removed": { severity: "warning", subjectType: "node" },
  "node.cordoned": { severity: "info", subjectType: "node" },
  "node.draining": { severity: "warning", subjectType: "node" },
  "node.uncordoned": { severity: "info", subjectType: "node" },
  "facility.held": { severity: "warning", subjectType: "domain" },
  "facility.released": { severity: "info", subjectType: "domain" },
  "replica.placed": { severity: "info", subjectType: "replica" },
  "replica.started": { severity: "info", subjectType: "replica" },
  "replica.failed": { severity: "error", subjectType: "replica" },
  "replica.rebuilt": { severity: "warning", subjectType: "replica" },
  "replica.context-shrunk": { severity: "warning", subjectType: "replica" },
  "model.parked": { severity: "error", subjectType: "model" },
  "model.retried": { severity: "info", subjectType: "model" },
  "model.unplaceable": { severity: "warning", subjectType: "model" },
  "model.placeable": { severity: "info", subjectType: "model" },
  "model.scaled-up": { severity: "info", subjectType: "model" },
  "model.scaled-down": { severity: "info", subjectType: "model" },
  "catalog.model-added": { severity: "info", subjectType: "model" },
  "catalog.model-removed": { severity: "info", subjectType: "model" },
  "catalog.fallbacks-changed": { severity: "info", subjectType: "model" },
  "catalog.model-resized": { severity: "info", subjectType: "model" },
  "key.created": { severity: "info", subjectType: "key" },
  "key.revoked": { severity: "info", subjectType: "key" },
  "release.added": { severity: "info", subjectType: "release" },
  "release.removed": { severity: "info", subjectType: "release" },
  "upgrade.control-plane": { severity: "info", subjectType: "release" },
  "upgrade.node-started": { severity: "info", subjectType: "node" },
  "upgrade.node-done": { severity: "info", subjectType: "node" },
  "upgrade.node-failed": { severity: "error", subjectType: "node" },
  "certificate.expiring": { severity: "warning", subjectType: "node" },
};

export interface EventRecorder {
  record(kind: EventKind, subjectId: string, params: EventParams): void;
  /** Event rows waiting for the store (for /metrics). */
  readonly waiting: Pick<StoreQueue<unknown>, "size" | "dropped">;
  /** Resolves when every queued write has been tried (tests and shutdown). */
  flush(): Promise<void>;
}

export function createEventRecorder(
  db: Database,
  nowMs: () => number,
  log: (line: string) => void,
): EventRecorder {
  let queue: Promise<void> = Promise.resolve();
  const rows = new StoreQueue<typeof events.$inferInsert>({
    what: "events",
    write: async (batch) => {
      await db.insert(events).values(batch);
    },
    retryEveryMs: RETRY_EVERY_MS,
    batchMax: 200,
    pendingMax: EVENTS_PENDING_MAX,
    log,
  });
  let insertsSincePrune = PRUNE_EVERY_INSERTS;
  // A node's state is announced once per change: several models noticing one lost node, or a
  // sweep and a reconcile pass both seeing it, still make one event.
  const lastNodeKind = new Map<string, EventKind>();
  const enqueue = (what: string, work: () => Promise<unknown>) => {
    queue = queue
      .then(work)
      .then(() => undefined)
      .catch((error: unknown) => log(`could not ${what}: ${messageOf(error)}`));
  };
  return {
    record(kind, subjectId, params) {
      const { severity, subjectType } = EVENT_KIND_META[kind];
      // Only the node's own state kinds are announced once per change; upgrade steps always are.
      if (subjectType === "node" && kind.startsWith("node.")) {
        if (lastNodeKind.get(subjectId) === kind) return;
        lastNodeKind.set(subjectId, kind);
      }
      const row = {
        at: new Date(nowMs()),
        kind,
        severity,
        subjectType,
        subjectId,
        params,
        isAcknowledged: severity === "info",
      };
      rows.add(row);
      enqueue(`record the event ${kind} for ${subjectId}`, () => rows.flush());
      if (++insertsSincePrune >= PRUNE_EVERY_INSERTS) {
        insertsSincePrune = 0;
        enqueue("prune old events", () => pruneEvents(db, nowMs()));
      }
    },
    waiting: rows,
    flush: async () => {
      await queue;
      await rows.flush();
    },
  };
}

/** Drops rows older than the kept age and all but the newest EVENTS_KEPT_MAX. */
export async function pruneEvents(db: Database, nowMs: number): Promise<void> {
  const oldestKeptId = sql`(select ${events.id} from ${events} order by ${events.id} desc offset ${
    EVENTS_KEPT_MAX - 1
  } limit 1)`;
  await db
    .delete(events)
    .where(or(lt(events.at, new Date(nowMs - EVENTS_KEPT_MS)), lt(events.id, oldestKeptId)));
}
