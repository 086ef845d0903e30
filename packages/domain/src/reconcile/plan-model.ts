// Planning one model: failures and parking first, then which replicas count, then what to stop
// and what to place so the count is exact. Every decision carries a sentence for the operator.
import { replaceNotBeforeMs } from "./failure-backoff";
import { buildFleet } from "../placement/fleet";
import { placeModelReplicas, type PlacementAdmission } from "../placement/place-model";
import { isNodeLost } from "./nodes";
import { existingOf, type PassState } from "./pass-state";
import { limitRefusal, notePlaced, noteStopped, type QuotaPass } from "./quota-pass";
import { onRefused } from "./refused";
import type { DesiredModel, ModelHealth, ObservedReplica, ReconcileAction } from "./types";
import { shardNodeIds } from "./shards";

const PHASE_RANK: Record<string, number> = {
  placing: 0,
  fetching: 1,
  starting: 2,
  draining: 3,
  ready: 4,
};

const isLive = (replica: ObservedReplica) => replica.phase !== "stopped";

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
  const failed = replicas.filter((replica) => replica.phase === "failed");
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

/** Replicas on lost nodes are given up (their cards come back only when the node does). */
function dropLost(
  replicas: readonly ObservedReplica[],
  state: PassState,
  actions: ReconcileAction[],
): ObservedReplica[] {
  const { nowMs, policy } = state.input;
  const kept: ObservedReplica[] = [];
  for (const replica of replicas) {
    // A replica spanning nodes is lost with any of its nodes: half an engine cannot serve.
    const lostNodeId = shardNodeIds(replica).find((id) =>
      isNodeLost(state.nodesById.get(id), nowMs, policy),
    );
    if (lostNodeId === undefined) {
      kept.push(replica);
      continue;
    }
    const nodeName = state.nodesById.get(lostNodeId)?.node.name ?? lostNodeId;
    if (!state.lostAnnounced.has(lostNodeId)) {
      state.lostAnnounced.add(lostNodeId);
      actions.push({ kind: "node-lost", nodeId: lostNodeId, nodeName });
    }
    const reason = `node ${nodeName} was lost; rebuilding elsewhere`;
    actions.push({
      kind: "stop",
      model: replica.model,
      replicaId: replica.id,
      nodeId: lostNodeId,
      reason,
    });
  }
  return kept;
}

/** Which to give up first: outdated, then least far along, then the newest. */
function surplusOrder(revision: number) {
  return (a: ObservedReplica, b: ObservedReplica): number => {
    const outdated = Number(b.modelRevision !== revision) - Number(a.modelRevision !== revision);
    if (outdated !== 0) return outdated;
    const rank = (PHASE_RANK[a.phase] ?? 0) - (PHASE_RANK[b.phase] ?? 0);
    return rank !== 0 ? rank : b.createdAtMs - a.createdAtMs;
  };
}

/** Why the replica must move: a node under it drains (ctl node drain, a held domain with --drain). */
function drainOf(replica: ObservedReplica, state: PassState): string | undefined {
  for (const nodeId of shardNodeIds(replica)) {
    const drain = state.nodesById.get(nodeId)?.node.drain;
    if (drain !== undefined) return drain;
  }
  return undefined;
}

/**
 * Replicas on draining nodes are replaced like outdated ones, with surge: they keep serving, and
 * out of the max, until enough replicas elsewhere are ready, and are stopped then.
 */
function chooseStops(
  model: DesiredModel,
  counting: ObservedReplica[],
  desired: number,
  drains: ReadonlyMap<ObservedReplica, string>,
): Map<ObservedReplica, string> {
  const { revision } = model;
  const max = model.definition.replicas.max;
  const stops = new Map<ObservedReplica, string>();
  const staying = counting.filter((r) => !drains.has(r));
  const current = staying.filter((r) => r.modelRevision === revision);
  const outdated = staying.filter((r) => r.modelRevision !== revision);
  const currentReady = current.filter((r) => r.phase === "ready").length;
  // Old replicas keep serving until enough of the new definition are ready to take over.
  if (currentReady >= desired) {
    for (const r of outdated) stops.set(r, "replaced by the model's new definition");
    for (const [r, drain] of drains) stops.set(r, `moved off: ${drain}; its replacement is ready`);
  }
  const surplus = [...current]
    .sort(surplusOrder(revision))
    .slice(0, Math.max(0, current.length - desired));
  for (const r of surplus) stops.set(r, `surplus: the model wants ${desired}`);
  const remaining = staying.filter((r) => !stops.has(r)).sort(surplusOrder(revision));
  for (const r of remaining.slice(0, Math.max(0, remaining.length - max)))
    stops.set(r, `above max ${max}`);
  return stops;
}

function planPlacements(
  model: DesiredModel,
  count: number,
  state: PassState,
  actions: ReconcileAction[],
  outdated: readonly ObservedReplica[],
): void {
  const name = model.definition.name;
  const asks = Array.from({ length: count }, () => ({
    model: model.definition,
    replicaId: state.input.newReplicaId(name),
  }));
  const input = {
    nodes: state.placementNodes,
    replicas: existingOf(state),
    policy: state.input.policy.placement,
  };
  state.fleet ??= buildFleet(input.nodes, input.replicas);
  const quota = state.quota;
  const limited = { atLimit: false };
  const admit = quota && limitAdmission(quota, limited);
  const results = placeModelReplicas(input, asks, state.fleet, admit);
  for (const result of results) {
    if (!result.ok) {
      onRefused(model, result, state, actions, { outdated, atLimit: limited.atLimit });
      return;
    }
    const place: ReconcileAction = {
      kind: "place",
      model: name,
      replicaId: result.replicaId,
      profile: result.profile,
      revision: model.revision,
      shards: result.shards,
      ...(result.gpuClass === undefined ? {} : { gpuClass: result.gpuClass }),
    };
    actions.push(place);
    const profile = model.definition.profiles.find((p) => p.name === result.profile);
    existingOf(state).push({
      id: result.replicaId,
      model: name,
      shards: result.shards,
      memoryGb: profile?.memory_gb ?? 0,
      cpuCores: profile?.cpu_cores ?? 0,
    });
  }
}

/**
 * Refuses what would pass a limit (and notes that it did); a placement it lets through is counted
 * at once for the next ask.
 */
function limitAdmission(quota: QuotaPass, limited: { atLimit: boolean }): PlacementAdmission {
  return (model, profile, shards) => {
    const refusal = limitRefusal(quota, model, profile, shards);
    if (refusal === null) notePlaced(quota, model.name, profile, shards);
    else limited.atLimit = true;
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

export function planModel(
  name: string,
  model: DesiredModel | undefined,
  replicas: readonly ObservedReplica[],
  health: ModelHealth | undefined,
  state: PassState,
): ReconcileAction[] {
  const actions: ReconcileAction[] = [];
  const live = replicas.filter(isLive);
  if (!model) {
    for (const r of live)
      actions.push({
        kind: "stop",
        model: name,
        replicaId: r.id,
        nodeId: r.nodeId,
        reason: "the model was removed from the catalog",
      });
    return actions;
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
    return actions;
  }
  const current = planFailures(
    model,
    health ?? freshHealth(name, model.revision),
    live,
    state,
    actions,
  );
  const counting = dropLost(
    live.filter((r) => r.phase !== "failed"),
    state,
    actions,
  );
  const desired = desiredReplicas(model, state.input.nowMs, state.input.policy.onDemandIdleMs);
  const drains = new Map<ObservedReplica, string>();
  for (const r of counting) {
    const drain = drainOf(r, state);
    if (drain !== undefined) drains.set(r, drain);
  }
  const stops = chooseStops(model, counting, desired, drains);
  for (const [r, reason] of stops)
    actions.push({ kind: "stop", model: name, replicaId: r.id, nodeId: r.nodeId, reason });
  // Draining replicas not yet stopped serve on, outside the count and the max, until replaced.
  const remaining = counting.filter((r) => !stops.has(r) && !drains.has(r));
  const currentCount = remaining.filter((r) => r.modelRevision === model.revision).length;
  const room = model.definition.replicas.max - remaining.length;
  const missing = Math.min(desired - currentCount, room);
  if (current.isParked || missing <= 0) {
    if (!current.isParked && desired > currentCount) {
      // No room under max while outdated replicas serve: retire the least useful one first.
      const outdated = remaining
        .filter((r) => r.modelRevision !== model.revision)
        .sort(surplusOrder(model.revision));
      const first = outdated[0];
      if (first)
        actions.push({
          kind: "stop",
          model: name,
          replicaId: first.id,
          nodeId: first.nodeId,
          reason: "making room for the model's new definition",
        });
    }
    return actions;
  }
  // A model whose replicas keep failing waits out its backoff before the next start.
  const notBeforeMs = replaceNotBeforeMs(current, state.input.policy.failureBackoff);
  if (notBeforeMs !== null && state.input.nowMs < notBeforeMs) return actions;
  // What this pass stops no longer counts, so a rebuild at a limit is not refused by its predecessor.
  if (state.quota) noteStopped(state.quota, replicas, actions);
  const outdated = remaining
    .filter((r) => r.modelRevision !== model.revision)
    .sort(surplusOrder(model.revision));
  planPlacements(model, missing, state, actions, outdated);
  return actions;
}
