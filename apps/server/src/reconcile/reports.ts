// What agents say about their replicas, folded into the book: in Register (engines still running
// from before, to adopt), in every Heartbeat (the full level) and in ReplicaStatus (a change).
// Nothing is decided here beyond bookkeeping: a change marks its model dirty for the reconciler,
// and a frame a node must hear again (a stop, a start it never got, its desired list) is handed to
// the reconcile loop as a decision; this file never talks to a node itself.
import { ReplicaPhase, type ReplicaStatus } from "@llmgw/proto";
import type { ReplicaPhaseName } from "@llmgw/domain";
import { fields, recordPhaseEvent } from "./phase-events";
import type { ReportDeps, ReportSink } from "./report-types";
import { applyShardReport } from "./shard-reports";

export type { ReportDecision, ReportDeps, ReportSink } from "./report-types";

const PHASE_NAMES: Partial<Record<ReplicaPhase, ReplicaPhaseName>> = {
  [ReplicaPhase.FETCHING]: "fetching",
  [ReplicaPhase.STARTING]: "starting",
  [ReplicaPhase.READY]: "ready",
  [ReplicaPhase.FAILED]: "failed",
  [ReplicaPhase.STOPPED]: "stopped",
  [ReplicaPhase.DRAINING]: "draining",
};

/** Frames repeated because a level disagrees (a stopped replica still running) go out at most this often. */
const RESEND_AFTER_MS = 5_000;

export function isRunning(phase: ReplicaPhaseName | undefined): boolean {
  return phase !== undefined && phase !== "stopped" && phase !== "failed";
}

async function applyOne(
  deps: ReportDeps,
  sink: ReportSink,
  nodeId: string,
  status: ReplicaStatus,
  isRegister: boolean,
): Promise<void> {
  const phase = PHASE_NAMES[status.phase];
  const record = deps.book.get(status.replicaId);
  const nowMs = deps.nowMs();
  if (!record) {
    // Not ours (the store was reset, or another control plane's leftovers): it holds cards nobody counts.
    if (isRunning(phase))
      sink.carryOut({
        kind: "stop",
        nodeId,
        replicaId: status.replicaId,
        reason: "unknown to the control plane",
      });
    return;
  }
  if (record.phase === "stopped") {
    if (!isRunning(phase)) return;
    // Half of a replica spanning nodes is no replica: its returning shard is stopped, not adopted.
    if (record.isLostStopped && record.nodeId === nodeId && !record.shards) {
      // Its node came back still running it: count it again; the planner stops a surplus.
      deps.log(`adopting ${record.model} replica ${record.id} again on its returning node`);
      await deps.book.update(
        record.id,
        { ...fields(status), phase: phase ?? "starting", isLostStopped: false },
        nowMs,
      );
      sink.markDirty(record.model);
    } else if (isRegister || nowMs - record.lastSentMs >= RESEND_AFTER_MS) {
      const reason = record.message || "stopped by the control plane";
      sink.carryOut({ kind: "stop", nodeId, replicaId: record.id, reason });
    }
    return;
  }
  if (phase === undefined) return;
  if (record.shards) {
    await applyShardReport(deps, sink, record, nodeId, status, phase);
    return;
  }
  if (record.nodeId !== nodeId) return;
  const changed =
    phase !== record.phase ||
    status.message !== record.message ||
    status.port !== (record.port ?? 0);
  record.fetchProgress = status.fetchProgress ?? null;
  if (!changed) return;
  const previousPhase = record.phase;
  await deps.book.update(record.id, { ...fields(status), phase }, nowMs);
  if (phase !== previousPhase)
    recordPhaseEvent(deps, record.id, record.model, nodeId, phase, status);
  sink.markDirty(record.model);
}

export async function applyReports(
  deps: ReportDeps,
  sink: ReportSink,
  nodeId: string,
  statuses: readonly ReplicaStatus[],
  origin: "register" | "status" | "heartbeat",
): Promise<void> {
  // Started together so every in-memory change lands before anything else runs; only writes wait.
  await Promise.all(
    statuses.map((status) => applyOne(deps, sink, nodeId, status, origin === "register")),
  );
  if (origin !== "heartbeat") return;
  // A replica placed here that the agent does not list never got its StartReplica: send it again.
  const listed = new Set(statuses.map((s) => s.replicaId));
  for (const record of deps.book.onNode(nodeId)) {
    if (listed.has(record.id)) continue;
    // Of a replica spanning nodes, only this node's shard, and a worker only once it can start.
    const shard = record.shards?.find((s) => s.nodeId === nodeId);
    const phase = shard?.phase ?? record.phase;
    const lastSentMs = shard?.lastSentMs ?? record.lastSentMs;
    const canStart = !shard || shard.rank === 0 || Boolean(record.leaderAddress);
    if (phase === "placing" && canStart && deps.nowMs() - lastSentMs >= RESEND_AFTER_MS)
      sink.carryOut({ kind: "resend-start", replicaId: record.id, nodeId });
  }
}

/** Register: adopt what still runs, then tell the node the whole desired list. */
export async function onNodeRegistered(
  deps: ReportDeps,
  sink: ReportSink,
  nodeId: string,
  reported: readonly ReplicaStatus[],
): Promise<void> {
  await applyReports(deps, sink, nodeId, reported, "register");
  sink.carryOut({ kind: "send-desired", nodeId });
  for (const record of deps.book.onNode(nodeId)) sink.markDirty(record.model);
}
