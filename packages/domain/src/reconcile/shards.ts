// A replica that spans nodes is one engine in several processes: a leader shard (rank 0) that
// serves the API and workers that join it. It is as alive as its weakest shard, so its phase is
// derived from theirs: ready only when every shard is, failed as soon as one fails.
import type { ObservedReplica, ObservedShard, ReplicaPhaseName } from "./types";

/** How far along a start each phase is; the replica stands where its slowest shard stands. */
const START_ORDER: readonly ReplicaPhaseName[] = ["placing", "fetching", "starting", "ready"];

/** The shards of a replica; a replica on one node is a single leader shard. */
export function shardsOf(replica: ObservedReplica): readonly ObservedShard[] {
  if (replica.shards && replica.shards.length > 0) return replica.shards;
  return [
    {
      rank: 0,
      nodeId: replica.nodeId,
      gpuIndexes: replica.gpuIndexes,
      phase: replica.phase,
      message: replica.message,
    },
  ];
}

/**
 * The phase of a whole replica from its shards' phases. A shard that failed or stopped on its
 * own leaves a half replica that cannot serve, so the whole replica is failed or stopped.
 */
export function combinedPhase(shards: readonly Pick<ObservedShard, "phase">[]): ReplicaPhaseName {
  const phases = shards.map((shard) => shard.phase);
  if (phases.length === 0) return "placing";
  if (phases.includes("failed")) return "failed";
  if (phases.includes("stopped")) return "stopped";
  if (phases.includes("draining")) return "draining";
  const slowest = Math.min(...phases.map((phase) => START_ORDER.indexOf(phase)));
  return START_ORDER[slowest] ?? "placing";
}

/**
 * Why a replica spanning nodes failed, when a worker did: the first failed worker's rank, node and
 * message. Undefined when no worker failed (the leader's own message then says why).
 */
export function workerFailureMessage(
  shards: readonly Pick<ObservedShard, "rank" | "nodeId" | "phase" | "message">[],
): string | undefined {
  const failed = shards.find((shard) => shard.phase === "failed" && shard.rank > 0);
  if (!failed) return undefined;
  return `shard rank ${failed.rank} on node ${failed.nodeId} failed: ${failed.message || "the engine failed"}`;
}

/** Why a replica failed: a failed worker named, else the leader's message. */
function failureMessage(replica: ObservedReplica, shards: readonly ObservedShard[]): string {
  const leader = shards.find((shard) => shard.rank === 0);
  const leaderMessage =
    leader?.phase === "failed" && leader.message ? leader.message : replica.message;
  return leader?.phase === "failed"
    ? leaderMessage
    : (workerFailureMessage(shards) ?? leaderMessage);
}

/**
 * The replica as planning reads it: a stopped replica stays stopped; otherwise its phase (and,
 * when it failed, its message) come from its shards.
 */
export function asWhole(replica: ObservedReplica): ObservedReplica {
  if (!replica.shards || replica.shards.length === 0 || replica.phase === "stopped") return replica;
  const phase = combinedPhase(replica.shards);
  if (phase === replica.phase && phase !== "failed") return replica;
  return { ...replica, phase, message: failureMessage(replica, replica.shards) };
}

/** Every node a replica runs on, leader first. */
export function shardNodeIds(replica: ObservedReplica): string[] {
  return shardsOf(replica).map((shard) => shard.nodeId);
}
