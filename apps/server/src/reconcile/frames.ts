// The only place replica frames leave for nodes: StartReplica, StopReplica and the full desired
// list after a Register. The plan's actions and the decisions agent reports lead to both come
// here, so every frame sent is stamped on its record the same way (resends are paced by it).
import type { ReconcileDeps } from "./deps";
import { isRunning, type ReportDecision } from "./reports";
import { announceServingSize, servingSizeOf } from "./serve-sizing";
import { startRequestFor, type StartReplicaInit } from "./start-request";

/**
 * Sends StartReplica to each shard of the replica (only the one on `nodeId` when given). A worker
 * shard is started only once its leader has said where to join it: until then it is left out.
 */
export function sendStart(deps: ReconcileDeps, replicaId: string, nodeId?: string): boolean {
  const record = deps.book.get(replicaId);
  const model = record && deps.catalog.current().get(record.model);
  if (!record || !model) return false;
  const targets = (record.shards ?? [{ rank: 0, nodeId: record.nodeId }]).filter(
    (shard) => nodeId === undefined || shard.nodeId === nodeId,
  );
  const sizing = servingSizeOf(deps, record, model);
  announceServingSize(deps, record, sizing);
  if (sizing.kind === "refused") return false;
  const contextTokens = sizing.kind === "shrunk" ? sizing.contextTokens : undefined;
  let isSent = false;
  for (const target of targets) {
    const start = startRequestFor(
      record,
      model,
      deps.replicaSecret,
      deps.startTimeoutMs,
      target.rank,
      contextTokens,
      deps.mirrorOrder?.(),
    );
    if (!start || (target.rank > 0 && start.leaderAddress === "")) continue;
    const nowMs = deps.nowMs();
    record.lastSentMs = nowMs;
    const shard = record.shards?.find((s) => s.rank === target.rank);
    if (shard) shard.lastSentMs = nowMs;
    isSent =
      deps.links.send(target.nodeId, { msg: { case: "startReplica", value: start } }) || isSent;
  }
  return isSent;
}

/** Stops the replica on the node, and on every other node one of its shards runs on. */
export function sendStop(
  deps: ReconcileDeps,
  nodeId: string,
  replicaId: string,
  reason: string,
): boolean {
  const record = deps.book.get(replicaId);
  if (record) record.lastSentMs = deps.nowMs();
  const nodeIds = new Set([nodeId, ...(record?.shards ?? []).map((shard) => shard.nodeId)]);
  let isSent = false;
  for (const target of nodeIds)
    isSent =
      deps.links.send(target, { msg: { case: "stopReplica", value: { replicaId, reason } } }) ||
      isSent;
  return isSent;
}

/** The full list a node should run, sent after every Register: the agent adopts, starts and stops to match. */
function desiredFor(deps: ReconcileDeps, nodeId: string): StartReplicaInit[] {
  const catalog = deps.catalog.current();
  const list: StartReplicaInit[] = [];
  for (const record of deps.book.onNode(nodeId)) {
    const model = catalog.get(record.model);
    if (!isRunning(record.phase)) continue;
    // Each shard of a replica spanning nodes on this node (one per node), at its own rank.
    const ranks = record.shards?.filter((s) => s.nodeId === nodeId).map((s) => s.rank) ?? [0];
    if (!model) continue;
    const sizing = servingSizeOf(deps, record, model);
    if (sizing.kind === "refused") continue;
    const contextTokens = sizing.kind === "shrunk" ? sizing.contextTokens : undefined;
    for (const rank of ranks) {
      const start = startRequestFor(
        record,
        model,
        deps.replicaSecret,
        deps.startTimeoutMs,
        rank,
        contextTokens,
        deps.mirrorOrder?.(),
      );
      if (start) list.push(start);
    }
  }
  return list;
}

/** Carries out what an agent's report decided, at once: the frame goes out before the next report. */
export function carryOutReport(deps: ReconcileDeps, decision: ReportDecision): void {
  switch (decision.kind) {
    case "stop":
      sendStop(deps, decision.nodeId, decision.replicaId, decision.reason);
      return;
    case "resend-start":
      sendStart(deps, decision.replicaId, decision.nodeId);
      return;
    case "send-desired": {
      const replicas = desiredFor(deps, decision.nodeId);
      deps.links.send(decision.nodeId, { msg: { case: "desiredReplicas", value: { replicas } } });
      return;
    }
  }
}
