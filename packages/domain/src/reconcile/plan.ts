// Reconcile planning: a pure function of (desired catalog, model health, observed replicas, live
// nodes, now) that returns the actions bringing each model to its count. The server executes the
// actions; a simulation executes them in memory. Neither can make the planner do I/O.
import { PRIORITY_CLASSES } from "../catalog/model-definition";
import type { ExistingReplica } from "../placement/types";
import type { PassState } from "./pass-state";
import { planModel } from "./plan-model";
import { createQuotaPass, noteStopped } from "./quota-pass";
import type { DesiredModel, ObservedReplica, ReconcileAction, ReconcileInput } from "./types";

export interface ReconcilePlan {
  actions: ReconcileAction[];
}

function existingFrom(input: ReconcileInput, byName: Map<string, DesiredModel>): ExistingReplica[] {
  return input.replicas
    .filter((replica) => replica.phase !== "stopped")
    .map((replica) => {
      const profile = byName
        .get(replica.model)
        ?.definition.profiles.find((p) => p.name === replica.profile);
      return {
        id: replica.id,
        model: replica.model,
        shards: [{ nodeId: replica.nodeId, cardIndexes: replica.gpuIndexes }],
        memoryGb: profile?.memory_gb ?? 0,
        cpuCores: profile?.cpu_cores ?? 0,
      };
    });
}

/** Higher priority classes place first, so they take cards before lower ones in the same pass. */
function planOrder(names: Iterable<string>, byName: Map<string, DesiredModel>): string[] {
  const rank = (name: string) => {
    const priority = byName.get(name)?.definition.priority_class ?? "normal";
    return PRIORITY_CLASSES.indexOf(priority);
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, "en"));
}

export function planReconcile(input: ReconcileInput): ReconcilePlan {
  const byName = new Map(input.models.map((model) => [model.definition.name, model]));
  const replicasByModel = new Map<string, ObservedReplica[]>();
  for (const replica of input.replicas) {
    const list = replicasByModel.get(replica.model);
    if (list) list.push(replica);
    else replicasByModel.set(replica.model, [replica]);
  }
  const healthByName = new Map(input.health.map((health) => [health.name, health]));
  const state: PassState = {
    input,
    byName,
    nodesById: new Map(input.nodes.map((node) => [node.node.id, node])),
    placementNodes: input.nodes.map((node) => node.node),
    existing: existingFrom(input, byName),
    lostAnnounced: new Set(),
    stopped: new Set(),
    quota: createQuotaPass(input, byName),
  };
  const names = input.only ?? new Set([...byName.keys(), ...replicasByModel.keys()]);
  const actions: ReconcileAction[] = [];
  for (const name of planOrder(new Set(names), byName)) {
    // A replica stopped earlier in the pass to make room is gone as far as its model is concerned.
    const taken = state.room?.taken;
    const all = replicasByModel.get(name) ?? [];
    const replicas = taken ? all.filter((replica) => !taken.has(replica.id)) : all;
    const planned = planModel(name, byName.get(name), replicas, healthByName.get(name), state);
    if (state.quota) noteStopped(state.quota, replicas, planned);
    for (const action of planned) if (action.kind === "stop") state.stopped.add(action.replicaId);
    actions.push(...planned);
  }
  return { actions };
}
