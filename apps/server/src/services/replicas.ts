// Replicas as the API shows them: every replica the control plane made, where and in what phase.
import type { ReplicaView, ReplicasService } from "@llmgw/api";
import type { ReconcileDeps } from "../reconcile/deps";
import type { ReplicaRecord } from "../reconcile/replica-book";

function view(deps: ReconcileDeps, record: ReplicaRecord): ReplicaView {
  return {
    id: record.id,
    model: record.model,
    profile: record.profile,
    nodeId: record.nodeId,
    nodeName: deps.registry.get(record.nodeId)?.register.nodeName ?? record.nodeId,
    gpuIndexes: [...record.gpuIndexes],
    engine: record.engine,
    phase: record.phase,
    message: record.message,
    endpoint: record.host && record.port ? `${record.host}:${record.port}` : null,
    phaseChangedAt: new Date(record.phaseChangedAtMs).toISOString(),
    lastUsedAt: record.lastUsedAtMs === null ? null : new Date(record.lastUsedAtMs).toISOString(),
    fetchProgress: record.fetchProgress,
  };
}

export function createReplicasService(deps: ReconcileDeps): ReplicasService {
  return {
    async list(filter) {
      const views = deps.book.all().map((record) => view(deps, record));
      return views
        .filter((v) => filter.model === undefined || v.model === filter.model)
        .filter(
          (v) =>
            filter.node === undefined || v.nodeId === filter.node || v.nodeName === filter.node,
        )
        .sort(
          (a, b) =>
            a.model.localeCompare(b.model, "en") ||
            a.nodeName.localeCompare(b.nodeName, "en") ||
            a.id.localeCompare(b.id, "en"),
        );
    },
  };
}
