// Replicas as the API shows them: every replica the control plane made, where and in what phase.
import type { IdleReplicasView, ReplicaView, ReplicasService } from "@llmgw/api";
import type { FleetView } from "../fleet/fleet-view";
import { idlePeak, type IdleRule } from "./idle-peak";
import type { ReplicaRecord } from "./replica-book";

function nodeName(fleet: FleetView, nodeId: string): string {
  return fleet.registry.get(nodeId)?.register.nodeName ?? nodeId;
}

function view(fleet: FleetView, record: ReplicaRecord): ReplicaView {
  return {
    id: record.id,
    model: record.model,
    profile: record.profile,
    nodeId: record.nodeId,
    nodeName: nodeName(fleet, record.nodeId),
    gpuIndexes: [...record.gpuIndexes],
    engine: record.engine,
    phase: record.phase,
    message: record.message,
    endpoint: record.host && record.port ? `${record.host}:${record.port}` : null,
    phaseChangedAt: new Date(record.phaseChangedAtMs).toISOString(),
    lastUsedAt: record.lastUsedAtMs === null ? null : new Date(record.lastUsedAtMs).toISOString(),
    fetchProgress: record.fetchProgress,
    shards: (record.shards ?? []).map((shard) => ({
      rank: shard.rank,
      nodeId: shard.nodeId,
      nodeName: nodeName(fleet, shard.nodeId),
      gpuIndexes: [...shard.gpuIndexes],
      phase: shard.phase,
      message: shard.message,
    })),
  };
}

/** Under 5 % busy over the last minute, with at least 3 samples so a fresh replica is not idle. */
const IDLE_RULE: IdleRule = { thresholdPercent: 5, minSamples: 3 };
const IDLE_WINDOW_MS = 60_000;

function peakIfIdle(fleet: FleetView, record: ReplicaRecord, sinceMs: number): number | null {
  const peakOf = (nodeId: string, cardIndex: number) => {
    const live = fleet.registry.get(nodeId);
    if (!live?.isConnected) return null;
    const uuid = live.register.hardware?.gpus.find((gpu) => gpu.index === cardIndex)?.uuid;
    return uuid ? fleet.registry.history.peakUtilization(nodeId, uuid, sinceMs) : null;
  };
  return idlePeak(record, peakOf, IDLE_RULE);
}

function idleReplicas(fleet: FleetView): IdleReplicasView {
  const sinceMs = fleet.nowMs() - IDLE_WINDOW_MS;
  const replicas = fleet.book
    .all()
    .filter((record) => record.phase === "ready")
    .flatMap((record) => {
      const peak = peakIfIdle(fleet, record, sinceMs);
      return peak === null ? [] : [{ replica: view(fleet, record), peakUtilizationPercent: peak }];
    })
    .sort((a, b) => a.replica.model.localeCompare(b.replica.model, "en"));
  return { thresholdPercent: IDLE_RULE.thresholdPercent, windowMs: IDLE_WINDOW_MS, replicas };
}

/** Whether the replica, or one of its shards when it spans nodes, runs on the node (id or name). */
function runsOn(view: ReplicaView, node: string): boolean {
  const at = (where: { nodeId: string; nodeName: string }) =>
    where.nodeId === node || where.nodeName === node;
  return at(view) || view.shards.some(at);
}

export function createReplicasService(fleet: FleetView): ReplicasService {
  return {
    idle: async () => idleReplicas(fleet),
    async list(filter) {
      const views = fleet.book.all().map((record) => view(fleet, record));
      return views
        .filter((v) => filter.model === undefined || v.model === filter.model)
        .filter((v) => filter.node === undefined || runsOn(v, filter.node))
        .sort(
          (a, b) =>
            a.model.localeCompare(b.model, "en") ||
            a.nodeName.localeCompare(b.nodeName, "en") ||
            a.id.localeCompare(b.id, "en"),
        );
    },
  };
}
