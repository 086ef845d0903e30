// Records fleet events off the path of whatever noticed them: a call queues the row and returns at
// once; writes go out one after another, and a failed write is logged, never thrown at the caller.
// Retention is bounded here too, by age and by count, so the table cannot grow without limit.
import { messageOf } from "@llmgw/domain";
import { events, lt, or, sql, type Database } from "@llmgw/db";
import type { EventKind, EventParams, EventSeverity, EventSubjectType } from "@llmgw/api";

export const EVENTS_KEPT_MAX = 10_000;
export const EVENTS_KEPT_MS = 30 * 86_400_000;
/** Pruning after every insert would double the writes; every so many is enough for a bound. */
const PRUNE_EVERY_INSERTS = 200;

/** How bad each kind is and what it is about; fixed per kind so filters mean the same everywhere. */
const EVENT_KIND_META: Record<
  EventKind,
  { severity: EventSeverity; subjectType: EventSubjectType }
> = {
  "node.unreachable": { severity: "warning", subjectType: "node" },
  "node.lost": { severity: "error", subjectType: "node" },
  "node.back": { severity: "info", subjectType: "node" },
  "node.removed": { severity: "warning", subjectType: "node" },
  "replica.placed": { severity: "info", subjectType: "replica" },
  "replica.started": { severity: "info", subjectType: "replica" },
  "replica.failed": { severity: "error", subjectType: "replica" },
  "replica.rebuilt": { severity: "warning", subjectType: "replica" },
  "model.parked": { severity: "error", subjectType: "model" },
  "model.retried": { severity: "info", subjectType: "model" },
  "model.unplaceable": { severity: "warning", subjectType: "model" },
  "model.placeable": { severity: "info", subjectType: "model" },
  "catalog.model-added": { severity: "info", subjectType: "model" },
  "catalog.model-removed": { severity: "info", subjectType: "model" },
  "catalog.fallbacks-changed": { severity: "info", subjectType: "model" },
  "key.created": { severity: "info", subjectType: "key" },
  "key.revoked": { severity: "info", subjectType: "key" },
};

export interface EventRecorder {
  record(kind: EventKind, subjectId: string, params: EventParams): void;
  /** Resolves when every queued write has been tried (tests and shutdown). */
  flush(): Promise<void>;
}

export function createEventRecorder(
  db: Database,
  nowMs: () => number,
  log: (line: string) => void,
): EventRecorder {
  let queue: Promise<void> = Promise.resolve();
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
      if (subjectType === "node") {
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
      enqueue(`record the event ${kind} for ${subjectId}`, () => db.insert(events).values(row));
      if (++insertsSincePrune >= PRUNE_EVERY_INSERTS) {
        insertsSincePrune = 0;
        enqueue("prune old events", () => pruneEvents(db, nowMs()));
      }
    },
    flush: async () => {
      await queue;
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
