// Replicas as the API shows them: every replica the control plane made, where and in what phase.
import {
  replicaCardsOf,
  ServiceError,
  type Actor,
  type BenchAccess,
  type BenchAccessInput,
  type IdleReplicasView,
  type ReplicaView,
  type ReplicasService,
} from "@llmgw/api";
import { deriveReplicaKey } from "@llmgw/engines";
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

export interface BenchAccessDeps {
  replicaSecret: Uint8Array;
  /** Writes the audit row; handing out an engine's key is always recorded. */
  audit(entry: {
    actor: string;
    action: string;
    target: string;
    details: Record<string, unknown>;
  }): Promise<void>;
}

/** `http://host:port/v1`, with an IPv6 host in brackets. */
function engineBaseUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/v1`;
}

async function benchAccess(
  fleet: FleetView,
  deps: BenchAccessDeps,
  input: BenchAccessInput,
  actor: Actor,
): Promise<BenchAccess> {
  const { model } = input;
  if (!fleet.catalog.current().get(model))
    throw new ServiceError("not_found", `model "${model}" is not in the catalog`, {
      ...{ code: "model.not_found", params: { name: model } },
    });
  const replicas = fleet.book.ofModel(model);
  const chosen =
    input.replica === undefined
      ? replicas.find((r) => r.phase === "ready" && r.host && r.port)
      : replicas.find((r) => r.id === input.replica);
  if (input.replica !== undefined && !chosen)
    throw new ServiceError(
      "not_found",
      `no replica "${input.replica}" of model "${model}"; see \`llmgw ctl replicas --model ${model}\``,
      { code: "replica.not_found", params: { id: input.replica, model } },
    );
  if (!chosen || chosen.phase !== "ready" || !chosen.host || !chosen.port)
    throw new ServiceError(
      "conflict",
      `model "${model}" has no ready replica to measure; see \`llmgw ctl replicas --model ${model}\``,
      { code: "replica.none_ready", params: { model } },
    );
  await deps.audit({
    actor: actor.username,
    action: "replica.bench_access",
    target: chosen.id,
    details: { model },
  });
  return {
    replicaId: chosen.id,
    model,
    engine: chosen.engine,
    nodeName: nodeName(fleet, chosen.nodeId),
    baseUrl: engineBaseUrl(chosen.host, chosen.port),
    key: deriveReplicaKey(deps.replicaSecret, chosen.id),
    servedModelName: model,
  };
}

export function createReplicasService(fleet: FleetView, deps: BenchAccessDeps): ReplicasService {
  return {
    idle: async () => idleReplicas(fleet),
    benchAccess: (input, actor) => benchAccess(fleet, deps, input, actor),
    // From the records themselves: the full views (names, dates, sorted) would be thrown away.
    cards: async () => replicaCardsOf(fleet.book.all()),
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
