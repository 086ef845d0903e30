// What agents say about their replicas, folded into the book: in Register (engines still running
// from before, to adopt), in every Heartbeat (the full level) and in ReplicaStatus (a change).
// Nothing is decided here beyond bookkeeping: a change marks its model dirty for the reconciler,
// and a frame a node must hear again (a stop, a start it never got, its desired list) is handed to
// the reconcile loop as a decision; this file never talks to a node itself.
import { ReplicaPhase, type ReplicaStatus } from "@llmgw/proto";
import type { ReplicaPhaseName } from "@llmgw/domain";
import type { ReconcileDeps } from "./deps";

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

/** A frame a report calls for; the reconcile loop sends it. */
export type ReportDecision =
  | { kind: "stop"; nodeId: string; replicaId: string; reason: string }
  | { kind: "resend-start"; replicaId: string }
  | { kind: "send-desired"; nodeId: string };

export interface ReportSink {
  markDirty(model: string): void;
  /** Sends what the decision calls for, at once. */
  carryOut(decision: ReportDecision): void;
}

/** What reports read and write: the book (phases), and the registry and events to tell of them. */
export interface ReportDeps extends Pick<ReconcileDeps, "nowMs" | "log"> {
  book: Pick<ReconcileDeps["book"], "get" | "update" | "onNode">;
  registry: Pick<ReconcileDeps["registry"], "get">;
  events: Pick<ReconcileDeps["events"], "record">;
}

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
    if (record.isLostStopped && record.nodeId === nodeId) {
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
  if (record.nodeId !== nodeId || phase === undefined) return;
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

function recordPhaseEvent(
  deps: ReportDeps,
  replicaId: string,
  model: string,
  nodeId: string,
  phase: ReplicaPhaseName,
  status: ReplicaStatus,
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

function fields(status: ReplicaStatus) {
  return {
    message: status.message,
    host: status.host || null,
    port: status.port || null,
    fetchProgress: status.fetchProgress ?? null,
  };
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
    if (
      record.phase === "placing" &&
      !listed.has(record.id) &&
      deps.nowMs() - record.lastSentMs >= RESEND_AFTER_MS
    )
      sink.carryOut({ kind: "resend-start", replicaId: record.id });
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
