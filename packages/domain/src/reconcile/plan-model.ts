// Planning one model: failures and parking first, then which replicas count, then what to stop
// and what to place so the count is exact. Every decision carries a sentence for the operator.
import { replaceNotBeforeMs } from "./failure-backoff";
import { fleetFrom } from "../placement/fleet-cache";
import { placeModelCopies, type PlacementAdmission } from "../placement/place-model";
import { dropLost, drainOf, isOnLiveNode } from "./replica-nodes";
import { existingOf, placementNodesOf, type PassState } from "./pass-state";
import { admitPlacement, noteStopped, type QuotaPass } from "./quota-pass";
import { onRefused } from "./refused";
import type { DesiredModel, ModelHealth, ObservedReplica, ReconcileAction } from "./types";
import { chooseStops, rolloutStep, surplusOrder } from "./rollout";

const isLive = (replica: ObservedReplica) => replica.phase !== "stopped";
const isFailed = (replica: ObservedReplica) => replica.phase === "failed";
const isNotFailed = (replica: ObservedReplica) => replica.phase !== "failed";

/**
 * The replicas `keep` lets through; an empty list is handed back as it is. Every model of a full
 * pass has none, and filtering them made a list (and often a closure) per step per model.
 */
function kept(
  replicas: readonly ObservedReplica[],
  keep: (replica: ObservedReplica) => boolean,
): readonly ObservedReplica[] {
  return replicas.length === 0 ? replicas : replicas.filter(keep);
}

function freshHealth(name: string, revision: number): ModelHealth {
  return { name, consecutiveFailures: 0, isParked: false, lastError: null, revision };
}

/** Failed replicas are counted once and retired; five in a row park the model. */
function planFailures(
  model: DesiredModel,
  health: ModelHealth,
  replicas: readonly ObservedReplica[],
  state: PassState,
  actions: ReconcileAction[],
): ModelHealth {
  const name = model.definition.name;
  let current = health;
  if (health.revision !== model.revision && (health.isParked || health.consecutiveFailures > 0)) {
    actions.push({
      kind: "reset-failures",
      model: name,
      revision: model.revision,
      why: "new-revision",
    });
    current = freshHealth(name, model.revision);
  }
  const failed = kept(replicas, isFailed);
  const threshold = state.input.policy.failuresToPark;
  for (const replica of failed) {
    const error = replica.message || "the engine failed to start";
    // Replicas that fail together count until the threshold; the count never reads past it.
    if (current.consecutiveFailures < threshold) {
      actions.push({
        kind: "count-failure",
        model: name,
        replicaId: replica.id,
        revision: model.revision,
        error,
      });
      current = {
        ...current,
        consecutiveFailures: current.consecutiveFailures + 1,
        lastError: error,
        lastFailureAtMs: state.input.nowMs,
      };
    }
    actions.push({
      kind: "stop",
      model: name,
      replicaId: replica.id,
      nodeId: replica.nodeId,
      reason: `failed: ${error}`,
    });
  }
  if (!current.isParked && current.consecutiveFailures >= threshold) {
    const lastError = current.lastError ?? "the engine failed to start";
    actions.push({ kind: "park", model: name, lastError });
    current = { ...current, isParked: true };
  }
  const anyReady = replicas.some((r) => r.phase === "ready" && r.modelRevision === model.revision);
  if (failed.length === 0 && anyReady && current.consecutiveFailures > 0 && !current.isParked) {
    actions.push({ kind: "reset-failures", model: name, revision: model.revision, why: "ready" });
    current = freshHealth(name, model.revision);
  }
  return current;
}

function planPlacements(
  model: DesiredModel,
  count: number,
  state: PassState,
  actions: ReconcileAction[],
  outdated: readonly ObservedReplica[],
): void {
  const name = model.definition.name;
  // Every id is named before placing, as the ids after a refusal were named before too.
  const replicaIds = REPLICA_IDS;
  for (let at = 0; at < count; at += 1) replicaIds[at] = state.input.newReplicaId(name);
  const nodes = placementNodesOf(state);
  state.fleet ??= fleetFrom(state.input.cache?.fleet, nodes, existingOf(state));
  const quota = state.quota;
  const limited = { atLimit: false };
  const { revision } = model;
  const refused = placeModelCopies(
    {
      model: model.definition,
      replicaIds,
      count,
      preferredRole: model.preferredRole,
      fleet: state.fleet,
      policy: state.input.policy.placement,
      admit: quota && limitAdmission(quota, limited),
    },
    (replicaId, profile, shards, gpuClass) => {
      // Made whole in one of two shapes, never given its class afterwards: a property added to a
      // literal moved the action's fields out of the object into a store of their own.
      actions.push(
        gpuClass === undefined
          ? { kind: "place", model: name, replicaId, profile, revision, shards }
          : { kind: "place", model: name, replicaId, profile, revision, shards, gpuClass },
      );
    },
  );
  replicaIds.fill("", 0, count);
  if (refused !== undefined)
    onRefused(model, refused, state, actions, { outdated, atLimit: limited.atLimit });
}

/**
 * The ids of the model being placed, written over model by model: a list of asks made per model
 * was a record per replica that the pass read once.
 */
const REPLICA_IDS: string[] = [];

/**
 * Refuses what would pass a limit (and notes that it did); a placement it lets through is counted
 * at once for the next ask.
 */
function limitAdmission(quota: QuotaPass, limited: { atLimit: boolean }): PlacementAdmission {
  return (model, profile, shards, nodes, cardClasses) => {
    const refusal = admitPlacement(quota, model, profile, shards, nodes, cardClasses);
    if (refusal !== null) limited.atLimit = true;
    return refusal;
  };
}

/** How long an on-demand model keeps a replica after the last request asked for it. */
const ON_DEMAND_IDLE_MS = 10 * 60_000;

/**
 * Replicas wanted now: the base (the minimum, or one for an on-demand model a request asked for
 * within the idle window, even with a minimum of 0) plus what autoscaling added, never above max.
 * An external model wants none: its provider serves it. With a base of 0 nothing is added.
 */
export function desiredReplicas(
  model: DesiredModel,
  nowMs?: number,
  idleMs = ON_DEMAND_IDLE_MS,
): number {
  const base = baseReplicas(model, nowMs, idleMs);
  if (base === 0) return 0;
  return Math.min(model.definition.replicas.max, base + (model.autoscaleAdded ?? 0));
}

/** Replicas wanted without autoscaling: what `desiredReplicas` adds to. */
export function baseReplicas(
  model: DesiredModel,
  nowMs?: number,
  idleMs = ON_DEMAND_IDLE_MS,
): number {
  const { definition } = model;
  if (definition.external) return 0;
  const min = Math.min(definition.replicas.min, definition.replicas.max);
  const asked = model.demandedAtMs;
  const isWanted =
    definition.on_demand &&
    asked !== undefined &&
    asked !== null &&
    nowMs !== undefined &&
    nowMs - asked < idleMs;
  return isWanted ? Math.max(min, 1) : min;
}

/**
 * The common case in a settled fleet: as many replicas as wanted, all ready on the current
 * definition on nodes neither lost nor draining, and no failure to count or forget. The full path would decide
 * nothing; this answers so without its filters and sorts, which at thousands of models were most
 * of a pass with nothing to change.
 */
function isSettled(
  model: DesiredModel,
  live: readonly ObservedReplica[],
  health: ModelHealth | undefined,
  state: PassState,
): boolean {
  if (health && (health.isParked || health.consecutiveFailures > 0)) return false;
  const { nowMs, policy } = state.input;
  const desired = desiredReplicas(model, nowMs, policy.onDemandIdleMs);
  if (live.length !== desired || desired > model.definition.replicas.max) return false;
  for (const replica of live)
    if (
      replica.phase !== "ready" ||
      replica.modelRevision !== model.revision ||
      !isOnLiveNode(replica, state, nowMs, policy)
    )
      return false;
  return true;
}

/**
 * How many replicas to place this pass: what is missing, or during a rollout one at a time (0
 * when it waits, or when it stops an old replica first, which it adds to `actions`).
 */
function placementsWanted(
  model: DesiredModel,
  remaining: readonly ObservedReplica[],
  desired: number,
  actions: ReconcileAction[],
): number {
  if (remaining.length === 0 || !remaining.some((r) => r.modelRevision !== model.revision)) {
    const room = model.definition.replicas.max - remaining.length;
    return Math.min(desired - remaining.length, room);
  }
  const step = rolloutStep(model, remaining, desired);
  if (step.kind === "stop") {
    const { replica, reason } = step;
    actions.push({
      kind: "stop",
      model: model.definition.name,
      replicaId: replica.id,
      nodeId: replica.nodeId,
      reason,
    });
  }
  return step.kind === "place" ? 1 : 0;
}

/**
 * Plans one model, adding its actions to `actions` (the pass's list: a list per model grew twice
 * for a model placing ten replicas, and was copied into the pass's).
 */
export function planModel(
  name: string,
  model: DesiredModel | undefined,
  replicas: readonly ObservedReplica[],
  health: ModelHealth | undefined,
  state: PassState,
  actions: ReconcileAction[],
): void {
  const start = actions.length;
  const live = kept(replicas, isLive);
  if (!model) {
    for (const r of live)
      actions.push({
        kind: "stop",
        model: name,
        replicaId: r.id,
        nodeId: r.nodeId,
        reason: "the model was removed from the catalog",
      });
    return;
  }
  if (model.definition.external) {
    // Served by its provider: nothing is placed, and replicas left from a local definition stop.
    for (const r of live)
      actions.push({
        kind: "stop",
        model: name,
        replicaId: r.id,
        nodeId: r.nodeId,
        reason: "the model is now served by an external provider",
      });
    return;
  }
  if (isSettled(model, live, health, state)) return;
  const current = planFailures(
    model,
    health ?? freshHealth(name, model.revision),
    live,
    state,
    actions,
  );
  const counting = dropLost(kept(live, isNotFailed), state, actions);
  const desired = desiredReplicas(model, state.input.nowMs, state.input.policy.onDemandIdleMs);
  // Made at the first draining replica: most models have none.
  let drains: Map<ObservedReplica, string> | undefined;
  for (const r of counting) {
    const drain = drainOf(r, state);
    if (drain !== undefined) (drains ??= new Map()).set(r, drain);
  }
  const stops = chooseStops(model, counting, desired, drains);
  for (const [r, reason] of stops)
    actions.push({ kind: "stop", model: name, replicaId: r.id, nodeId: r.nodeId, reason });
  // Draining replicas not yet stopped serve on, outside the count and the max, until replaced.
  const remaining =
    counting.length === 0
      ? counting
      : counting.filter((r) => !stops.has(r) && drains?.has(r) !== true);
  if (current.isParked) return;
  const missing = placementsWanted(model, remaining, desired, actions);
  if (missing <= 0) return;
  // A model whose replicas keep failing waits out its backoff before the next start.
  const notBeforeMs = replaceNotBeforeMs(current, state.input.policy.failureBackoff);
  if (notBeforeMs !== null && state.input.nowMs < notBeforeMs) return;
  // What this pass stops no longer counts, so a rebuild at a limit is not refused by its predecessor.
  if (state.quota) noteStopped(state.quota, replicas, actions, start);
  const outdated =
    remaining.length === 0
      ? remaining
      : remaining
          .filter((r) => r.modelRevision !== model.revision)
          .sort(surplusOrder(model.revision));
  planPlacements(model, missing, state, actions, outdated);
  return;
}
