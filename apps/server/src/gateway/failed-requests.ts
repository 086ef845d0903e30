// Failed /v1 requests one by one for the Usage page and `llmgw ctl requests failed`: usage rows with
// a status of 400 or more or an error code (a stream cut after its 200), newest first with cursor paging, each with its key's prefix and the node
// its replica ran on, read from the replicas the store holds or, for one since gone, from the
// event that recorded its placement.
import {
  and,
  apiKeys,
  desc,
  eq,
  events,
  gt,
  gte,
  inArray,
  isNotNull,
  lt,
  or,
  nodes,
  replicas,
  usageRecords,
  type Database,
  type UsageRecordRow,
} from "@llmgw/db";
import type { FailedRequestsInput, FailedRequestsPage } from "@llmgw/api";
import { failedRequestView, placementOf, replicaIdsOf, type FailedLookups } from "./failed-view";
import { usageWindow } from "./usage-window";

/**
 * A request failed when its answer's status was 400 or more, or when it ended with an error code:
 * a stream that began with 200 and was cut by an error event.
 */
const FAILED_STATUS_MIN = 400;

export async function failedRequests(
  db: Database,
  input: FailedRequestsInput,
  nowMs: number,
): Promise<FailedRequestsPage> {
  const { since, until } = usageWindow(input, nowMs);
  const rows = await db
    .select()
    .from(usageRecords)
    .where(
      and(
        or(gte(usageRecords.status, FAILED_STATUS_MIN), isNotNull(usageRecords.errorCode)),
        gt(usageRecords.at, since),
        lt(usageRecords.at, until),
        input.model ? eq(usageRecords.model, input.model) : undefined,
        input.cursor ? lt(usageRecords.id, input.cursor) : undefined,
      ),
    )
    // Rows are written in the order the requests ended, so the id is the newest-first order.
    .orderBy(desc(usageRecords.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const lookups = await lookupsFor(db, page);
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    requests: page.map((row) => failedRequestView(row, lookups)),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

async function lookupsFor(db: Database, rows: readonly UsageRecordRow[]): Promise<FailedLookups> {
  const keyIds = [...new Set(rows.map((row) => row.keyId))];
  const replicaIds = replicaIdsOf(rows);
  const [keys, live] = await Promise.all([
    keyIds.length === 0
      ? []
      : db
          .select({ id: apiKeys.id, prefix: apiKeys.prefix })
          .from(apiKeys)
          .where(inArray(apiKeys.id, keyIds)),
    replicaIds.length === 0
      ? []
      : db
          .select({ id: replicas.id, nodeId: replicas.nodeId })
          .from(replicas)
          .where(inArray(replicas.id, replicaIds)),
  ]);
  const liveReplicaNodes = new Map(live.map((r) => [r.id, r.nodeId]));
  const placedReplicaNodes = await placementsOf(
    db,
    replicaIds.filter((id) => !liveReplicaNodes.has(id)),
  );
  const nodeIds = [
    ...new Set([
      ...liveReplicaNodes.values(),
      ...[...placedReplicaNodes.values()].map((p) => p.nodeId),
    ]),
  ];
  const known =
    nodeIds.length === 0
      ? []
      : await db
          .select({ id: nodes.id, name: nodes.name })
          .from(nodes)
          .where(inArray(nodes.id, nodeIds));
  return {
    keyPrefixes: new Map(keys.map((k) => [k.id, k.prefix])),
    liveReplicaNodes,
    placedReplicaNodes,
    nodeNames: new Map(known.map((n) => [n.id, n.name])),
  };
}

/** Where stopped replicas were placed, from the newest placement event of each still kept. */
async function placementsOf(
  db: Database,
  replicaIds: readonly string[],
): Promise<Map<string, { nodeId: string; nodeName: string | null }>> {
  const found = new Map<string, { nodeId: string; nodeName: string | null }>();
  if (replicaIds.length === 0) return found;
  const placed = await db
    .select({ replicaId: events.subjectId, params: events.params })
    .from(events)
    .where(
      and(
        eq(events.subjectType, "replica"),
        inArray(events.subjectId, [...replicaIds]),
        inArray(events.kind, ["replica.placed", "replica.rebuilt"]),
      ),
    )
    .orderBy(desc(events.id));
  for (const event of placed) {
    const placement = placementOf(event.params);
    if (placement && !found.has(event.replicaId)) found.set(event.replicaId, placement);
  }
  return found;
}
