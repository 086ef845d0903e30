// The only place replica frames leave for nodes: StartReplica, StopReplica and the full desired
// list after a Register. The plan's actions and the decisions agent reports lead to both come
// here, so every frame sent is stamped on its record the same way (resends are paced by it).
import type { ReconcileDeps } from "./deps";
import { isRunning, type ReportDecision } from "./reports";
import { startRequestFor, type StartReplicaInit } from "./start-request";

export function sendStart(deps: ReconcileDeps, replicaId: string): boolean {
  const record = deps.book.get(replicaId);
  const model = record && deps.catalog.current().get(record.model);
  if (!record || !model) return false;
  const start = startRequestFor(record, model, deps.replicaSecret, deps.startTimeoutMs);
  if (!start) return false;
  record.lastSentMs = deps.nowMs();
  return deps.links.send(record.nodeId, { msg: { case: "startReplica", value: start } });
}

export function sendStop(
  deps: ReconcileDeps,
  nodeId: string,
  replicaId: string,
  reason: string,
): boolean {
  const record = deps.book.get(replicaId);
  if (record) record.lastSentMs = deps.nowMs();
  return deps.links.send(nodeId, { msg: { case: "stopReplica", value: { replicaId, reason } } });
}

/** The full list a node should run, sent after every Register: the agent adopts, starts and stops to match. */
function desiredFor(deps: ReconcileDeps, nodeId: string): StartReplicaInit[] {
  const catalog = deps.catalog.current();
  const list: StartReplicaInit[] = [];
  for (const record of deps.book.onNode(nodeId)) {
    const model = catalog.get(record.model);
    if (!isRunning(record.phase)) continue;
    const start = model && startRequestFor(record, model, deps.replicaSecret, deps.startTimeoutMs);
    if (start) list.push(start);
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
      sendStart(deps, decision.replicaId);
      return;
    case "send-desired": {
      const replicas = desiredFor(deps, decision.nodeId);
      deps.links.send(decision.nodeId, { msg: { case: "desiredReplicas", value: { replicas } } });
      return;
    }
  }
}
