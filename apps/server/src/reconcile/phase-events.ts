// The events and fields a replica's phase change records, for replicas on one node and spanning.
import type { ReplicaPhaseName } from "@llmgw/domain";
import type { ReplicaStatus } from "@llmgw/proto";
import type { ReportDeps } from "./report-types";

export function recordPhaseEvent(
  deps: ReportDeps,
  replicaId: string,
  model: string,
  nodeId: string,
  phase: ReplicaPhaseName,
  status: Pick<ReplicaStatus, "host" | "port" | "message">,
): void {
  const node = deps.registry.get(nodeId)?.register.nodeName ?? nodeId;
  if (phase === "ready")
    deps.events.record("replica.started", replicaId, {
      model,
      node,
      nodeId,
      endpoint: status.host && status.port ? `${status.host}:${status.port}` : null,
    });
  else if (phase === "failed")
    deps.events.record("replica.failed", replicaId, { model, node, nodeId, error: status.message });
}

export function fields(status: ReplicaStatus) {
  return {
    message: status.message,
    host: status.host || null,
    port: status.port || null,
    fetchProgress: status.fetchProgress ?? null,
  };
}
