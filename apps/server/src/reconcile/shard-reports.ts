// Reports about a shard of a replica spanning nodes. Each node reports its own shard under the
// replica's id; the shard's row takes the phase, and the replica's phase is derived from all of
// them (ready when every shard is, failed when one fails). The leader shard alone gives the
// replica its address (so routing reaches only the leader) and where its workers join it.
import { combinedPhase, workerFailureMessage, type ReplicaPhaseName } from "@llmgw/domain";
import type { ReplicaStatus } from "@llmgw/proto";
import type { ReplicaRecord } from "./replica-book";
import { fields, recordPhaseEvent } from "./phase-events";
import type { ReportDeps, ReportSink } from "./report-types";

/** The replica's message: the leader's, or when a worker failed (and the leader did not) why. */
function wholeMessage(
  record: ReplicaRecord,
  phase: ReplicaPhaseName,
  leaderMessage: string,
): string {
  const shards = record.shards ?? [];
  const isLeaderFailed = shards.some((shard) => shard.rank === 0 && shard.phase === "failed");
  if (phase !== "failed" || isLeaderFailed) return leaderMessage;
  return workerFailureMessage(shards) ?? leaderMessage;
}

/** A leader that reports where to join it has its workers started (or told again). */
function noteLeaderAddress(sink: ReportSink, record: ReplicaRecord, status: ReplicaStatus): void {
  const address = status.leaderAddress;
  if (address === "" || address === record.leaderAddress) return;
  record.leaderAddress = address;
  sink.carryOut({ kind: "resend-start", replicaId: record.id });
}

export async function applyShardReport(
  deps: ReportDeps,
  sink: ReportSink,
  record: ReplicaRecord,
  nodeId: string,
  status: ReplicaStatus,
  phase: ReplicaPhaseName,
): Promise<void> {
  const shards = record.shards ?? [];
  const shard = shards.find((s) => s.nodeId === nodeId);
  if (!shard) return;
  const isLeader = shard.rank === 0;
  if (isLeader) {
    record.fetchProgress = status.fetchProgress ?? null;
    noteLeaderAddress(sink, record, status);
  }
  const changed =
    phase !== shard.phase ||
    status.message !== shard.message ||
    (isLeader && status.port !== (record.port ?? 0));
  if (!changed) return;
  const nowMs = deps.nowMs();
  await deps.book.updateShard(record.id, shard.rank, { phase, message: status.message }, nowMs);
  const previous = record.phase;
  const whole = combinedPhase(shards);
  const leader = isLeader ? fields(status) : { message: record.message };
  const message = wholeMessage(record, whole, leader.message);
  await deps.book.update(record.id, { ...leader, message, phase: whole }, nowMs);
  if (whole !== previous) {
    // The replica's endpoint is its leader's, whichever shard's report made it ready.
    const endpoint = { host: record.host ?? "", port: record.port ?? 0, message };
    recordPhaseEvent(deps, record.id, record.model, record.nodeId, whole, endpoint);
  }
  sink.markDirty(record.model);
}
