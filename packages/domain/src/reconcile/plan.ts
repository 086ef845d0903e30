// Reconcile planning: a pure function of (desired catalog, model health, observed replicas, live
// nodes, now) that returns the actions bringing each model to its count. The server executes the
// actions; a simulation executes them in memory. Neither can make the planner do I/O.
import { PRIORITY_CLASSES } from "../catalog/model-definition";
import type { PassState } from "./pass-state";
import { planModel } from "./plan-model";
import { nodesByIdFrom } from "./plan-cache";
import { createQuotaPass, noteStopped } from "./quota-pass";
import { asWhole } from "./shards";
import type { DesiredModel, ObservedReplica, ReconcileAction, ReconcileInput } from "./types";

export interface ReconcilePlan {
  actions: ReconcileAction[];
}

/**
 * Higher priority classes place first, so they take cards before lower ones in the same pass; by
 * name within a class. Names are lowercase ASCII, so code-unit order is the alphabetical one, and
 * it costs nothing next to `localeCompare`, which spent longer sorting 2,000 models than planning
 * them.
 */
function planOrder(names: Iterable<string>, byName: Map<string, DesiredModel>): string[] {
  const ranked = [...names].map((name) => {
    const priority = byName.get(name)?.definition.priority_class ?? "normal";
    return { name, rank: PRIORITY_CLASSES.indexOf(priority) };
  });
  ranked.sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ranked.map((each) => each.name);
}

/**
 * A replica spanning nodes is planned as a whole: ready when every shard is, failed when one is.
 * The input's own list when no replica changes, as in a fleet of single-node replicas.
 */
function wholeReplicas(replicas: readonly ObservedReplica[]): readonly ObservedReplica[] {
  for (let at = 0; at < replicas.length; at += 1) {
    const replica = replicas[at] as ObservedReplica;
    if (asWhole(replica) !== replica) return replicas.map(asWhole);
  }
  return replicas;
}

export function planReconcile(input: ReconcileInput): ReconcilePlan {
  const byName = new Map<string, DesiredModel>();
  for (const model of input.models) byName.set(model.definition.name, model);
  const replicas = wholeReplicas(input.replicas);
  const replicasByModel = new Map<string, ObservedReplica[]>();
  for (const replica of replicas) {
    const list = replicasByModel.get(replica.model);
    if (list) list.push(replica);
    else replicasByModel.set(replica.model, [replica]);
  }
  // First: it checks the cache's nodes, which the rest of the pass then reads.
  const nodesById = nodesByIdFrom(input.cache, input.nodes);
  const healthByName = new Map(input.health.map((health) => [health.name, health]));
  const state: PassState = {
    input: { ...input, replicas },
    byName,
    nodesById,
    lostAnnounced: new Set(),
    stopped: new Set(),
    quota: createQuotaPass({ ...input, replicas }, byName, nodesById),
  };
  const names = input.only ?? new Set([...byName.keys(), ...replicasByModel.keys()]);
  const actions: ReconcileAction[] = [];
  for (const name of planOrder(new Set(names), byName)) {
    // A replica stopped earlier in the pass to make room is gone as far as its model is concerned.
    const taken = state.room?.taken;
    const all = replicasByModel.get(name) ?? [];
    const replicas = taken ? all.filter((replica) => !taken.has(replica.id)) : all;
    const start = actions.length;
    planModel(name, byName.get(name), replicas, healthByName.get(name), state, actions);
    if (state.quota) noteStopped(state.quota, replicas, actions, start);
    for (let at = start; at < actions.length; at += 1) {
      const action = actions[at] as ReconcileAction;
      if (action.kind === "stop") state.stopped.add(action.replicaId);
    }
  }
  return { actions };
}
