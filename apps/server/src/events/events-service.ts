// The Events page and `llmgw ctl events`: newest first with filters and cursor paging, the count of
// warnings and errors nobody has acknowledged yet, and acknowledging them.
import { and, auditLog, desc, eq, events, inArray, lt, lte, sql, type Database } from "@llmgw/db";
import type { EventRow } from "@llmgw/db";
import type { EventsService, EventView } from "@llmgw/api";

function eventView(row: EventRow): EventView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind as EventView["kind"],
    severity: row.severity as EventView["severity"],
    subjectType: row.subjectType as EventView["subjectType"],
    subjectId: row.subjectId,
    params: row.params,
    isAcknowledged: row.isAcknowledged,
  };
}

const needsAttention = () =>
  and(eq(events.isAcknowledged, false), inArray(events.severity, ["warning", "error"]));

export function createEventsService(db: Database): EventsService {
  return {
    async list(input) {
      const where = and(
        input.kinds?.length ? inArray(events.kind, input.kinds) : undefined,
        input.severities?.length ? inArray(events.severity, input.severities) : undefined,
        input.subjectType ? eq(events.subjectType, input.subjectType) : undefined,
        input.subjectId ? eq(events.subjectId, input.subjectId) : undefined,
        input.cursor ? lt(events.id, input.cursor) : undefined,
      );
      const rows = await db
        .select()
        .from(events)
        .where(where)
        .orderBy(desc(events.id))
        .limit(input.limit + 1);
      const page = rows.slice(0, input.limit);
      const hasMore = rows.length > input.limit;
      return {
        events: page.map(eventView),
        nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null,
      };
    },
    async attention() {
      const [row] = await db
        .select({
          count: sql<number>`count(*)`.mapWith(Number),
          newestId: sql<number | null>`max(${events.id})`.mapWith((v) =>
            v === null ? null : Number(v),
          ),
        })
        .from(events)
        .where(needsAttention());
      return { count: row?.count ?? 0, newestId: row?.newestId ?? null };
    },
    async acknowledge(upToId, actor) {
      const changed = await db
        .update(events)
        .set({ isAcknowledged: true })
        .where(and(needsAttention(), lte(events.id, upToId)))
        .returning({ id: events.id });
      if (changed.length > 0)
        await db.insert(auditLog).values({
          actor: actor.username,
          action: "events.acknowledge",
          target: String(upToId),
          details: { acknowledged: changed.length },
        });
      return { acknowledged: changed.length };
    },
  };
}
