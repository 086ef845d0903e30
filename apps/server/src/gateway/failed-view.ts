// The pure half of the failed-requests list: one usage row, plus what the store knows of its key,
// replica and node, shaped into what the console and `llmgw ctl requests failed` show. A replica
// that has stopped is found on the node its placement was recorded on; a row that leads to no node
// says why, so the console shows a reason instead of a dead link.
import type { FailedRequest, NoNodeReason } from "@llmgw/api";
import type { UsageRecordRow } from "@llmgw/db";

/** External endpoints are named `external:MODEL#n` by the gateway's endpoint index. */
const EXTERNAL_ENDPOINT_PREFIX = "external:";

export interface FailedLookups {
  /** Key id → its visible prefix. */
  keyPrefixes: ReadonlyMap<string, string>;
  /** Replicas the store still holds: id → node id. */
  liveReplicaNodes: ReadonlyMap<string, string>;
  /** Replicas as placed (events), for those since gone: id → node id and its name then. */
  placedReplicaNodes: ReadonlyMap<string, { nodeId: string; nodeName: string | null }>;
  /** Nodes the store still holds: id → name. */
  nodeNames: ReadonlyMap<string, string>;
}

/** The replica ids of these rows whose node must be looked up (none for external endpoints). */
export function replicaIdsOf(rows: readonly Pick<UsageRecordRow, "replicaId">[]): string[] {
  const ids = rows
    .map((row) => row.replicaId)
    .filter((id): id is string => id !== null && !id.startsWith(EXTERNAL_ENDPOINT_PREFIX));
  return [...new Set(ids)];
}

type Where = Pick<FailedRequest, "nodeId" | "nodeName" | "isReplicaGone" | "noNodeReason">;

function nowhere(reason: NoNodeReason, isReplicaGone = false): Where {
  return { nodeId: null, nodeName: null, isReplicaGone, noNodeReason: reason };
}

function whereItRan(replicaId: string | null, lookups: FailedLookups): Where {
  if (replicaId === null) return nowhere("no-replica");
  if (replicaId.startsWith(EXTERNAL_ENDPOINT_PREFIX)) return nowhere("external");
  const liveNode = lookups.liveReplicaNodes.get(replicaId);
  const placed = lookups.placedReplicaNodes.get(replicaId);
  const nodeId = liveNode ?? placed?.nodeId;
  const isReplicaGone = liveNode === undefined;
  if (nodeId === undefined) return nowhere("replica-unknown", isReplicaGone);
  const nodeName = lookups.nodeNames.get(nodeId);
  // A node that has left has no log to open; its name as placed still says where it ran.
  if (nodeName === undefined)
    return {
      nodeId,
      nodeName: placed?.nodeName ?? null,
      isReplicaGone,
      noNodeReason: "node-removed",
    };
  return { nodeId, nodeName, isReplicaGone, noNodeReason: null };
}

export function failedRequestView(row: UsageRecordRow, lookups: FailedLookups): FailedRequest {
  return {
    id: row.id,
    at: row.at.toISOString(),
    model: row.model,
    endpoint: row.endpoint,
    status: row.status,
    errorCode: row.errorCode,
    requestId: row.requestId,
    owner: row.owner,
    keyPrefix: lookups.keyPrefixes.get(row.keyId) ?? null,
    latencyMs: row.latencyMs,
    replicaId: row.replicaId,
    ...whereItRan(row.replicaId, lookups),
  };
}

/** Event params are loose JSON: a placement's node id and name, when it has them. */
export function placementOf(
  params: Record<string, unknown>,
): { nodeId: string; nodeName: string | null } | null {
  const { nodeId, node } = params;
  if (typeof nodeId !== "string" || nodeId === "") return null;
  return { nodeId, nodeName: typeof node === "string" ? node : null };
}
