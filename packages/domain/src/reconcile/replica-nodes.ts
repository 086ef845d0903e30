// Where a replica runs, as one pass sees it: on a lost node (given up, with the node announced
// once), on a draining one (to move), or on live nodes only. A replica spanning nodes is judged by
// every shard's node.
import { isNodeLost } from "./nodes";
import type { PassState } from "./pass-state";
import type { ObservedReplica, ReconcileAction, ReconcilePolicy } from "./types";

/**
 * The first lost node a replica runs on, or undefined. A replica spanning nodes is lost with any of
 * its nodes: half an engine cannot serve. Read without building the shard list, as every replica
 * of the fleet is asked this in every pass.
 */
function lostNodeOf(
  replica: ObservedReplica,
  state: PassState,
  nowMs: number,
  policy: ReconcilePolicy,
): string | undefined {
  // No closure over the node map: this runs for every replica, and a function made per call
  // (named, under the build's keep-names helper) cost more than the lookups.
  const { nodesById } = state;
  if (!replica.shards || replica.shards.length === 0)
    return isNodeLost(nodesById.get(replica.nodeId), nowMs, policy) ? replica.nodeId : undefined;
  for (const shard of replica.shards)
    if (isNodeLost(nodesById.get(shard.nodeId), nowMs, policy)) return shard.nodeId;
  return undefined;
}

/**
 * Whether a replica's node is neither lost nor draining: lostNodeOf and drainOf both undefined,
 * with one lookup of the node for a replica on one node, the common case a settled pass asks of
 * every replica.
 */
export function isOnLiveNode(
  replica: ObservedReplica,
  state: PassState,
  nowMs: number,
  policy: ReconcilePolicy,
): boolean {
  if (replica.shards && replica.shards.length > 0)
    return (
      lostNodeOf(replica, state, nowMs, policy) === undefined &&
      drainOf(replica, state) === undefined
    );
  const node = state.nodesById.get(replica.nodeId);
  return !isNodeLost(node, nowMs, policy) && node?.node.drain === undefined;
}

/** Replicas on lost nodes are given up (their cards come back only when the node does). */
export function dropLost(
  replicas: readonly ObservedReplica[],
  state: PassState,
  actions: ReconcileAction[],
): readonly ObservedReplica[] {
  // None to drop among none: handed back as it is, as every model of a full pass has none.
  if (replicas.length === 0) return replicas;
  const { nowMs, policy } = state.input;
  const kept: ObservedReplica[] = [];
  for (const replica of replicas) {
    const lostNodeId = lostNodeOf(replica, state, nowMs, policy);
    if (lostNodeId === undefined) {
      kept.push(replica);
      continue;
    }
    const nodeName = state.nodesById.get(lostNodeId)?.node.name ?? lostNodeId;
    if (!state.lostAnnounced.has(lostNodeId)) {
      state.lostAnnounced.add(lostNodeId);
      actions.push({ kind: "node-lost", nodeId: lostNodeId, nodeName });
    }
    const reason = `node ${nodeName} was lost; rebuilding elsewhere`;
    actions.push({
      kind: "stop",
      model: replica.model,
      replicaId: replica.id,
      nodeId: lostNodeId,
      reason,
    });
  }
  return kept;
}

/** Why the replica must move: a node under it drains (ctl node drain, a held domain with --drain). */
export function drainOf(replica: ObservedReplica, state: PassState): string | undefined {
  if (!replica.shards || replica.shards.length === 0)
    return state.nodesById.get(replica.nodeId)?.node.drain;
  for (const shard of replica.shards) {
    const drain = state.nodesById.get(shard.nodeId)?.node.drain;
    if (drain !== undefined) return drain;
  }
  return undefined;
}
