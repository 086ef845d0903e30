// What agents say about their replicas, folded into the book: in Register (engines still running
// from before, to adopt), in every Heartbeat (the full level) and in ReplicaStatus (a change).
// Nothing is decided here beyond bookkeeping; a change marks its model dirty for the reconciler.
import { ReplicaPhase, type ReplicaStatus } from "@llmgw/proto";
import type { ReplicaPhaseName } from "@llmgw/domain";
import type { ReconcileDeps } from "./deps";
import { sendStart, sendStop } from "./execute";
import { startRequestFor, type StartReplicaInit } from "./start-request";

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

export interface ReportSink {
  markDirty(model: string): void;
}

function isRunning(phase: ReplicaPhaseName | undefined): boolean {
  return phase !== undefined && phase !== "stopped" && phase !== "failed";
}

async function applyOne(
  deps: ReconcileDeps,
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
    if (isRunning(phase)) sendStop(deps, nodeId, status.replicaId, "unknown to the control plane");
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
      sendStop(deps, nodeId, record.id, record.message || "stopped by the control plane");
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
  deps: ReconcileDeps,
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
  deps: ReconcileDeps,
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
      sendStart(deps, record.id);
  }
}

/** The full list a node should run, sent after every Register: the agent adopts, starts and stops to match. */
export function desiredFor(deps: ReconcileDeps, nodeId: string): StartReplicaInit[] {
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

/** Register: adopt what still runs, then tell the node the whole desired list. */
export async function onNodeRegistered(
  deps: ReconcileDeps,
  sink: ReportSink,
  nodeId: string,
  reported: readonly ReplicaStatus[],
): Promise<void> {
  await applyReports(deps, sink, nodeId, reported, "register");
  const replicas = desiredFor(deps, nodeId);
  deps.links.send(nodeId, { msg: { case: "desiredReplicas", value: { replicas } } });
  for (const record of deps.book.onNode(nodeId)) sink.markDirty(record.model);
}
