// Reconcile planning: a pure function of (desired catalog, model health, observed replicas, live
// nodes, now) that returns the actions bringing each model to its count. The server executes the
// actions; a simulation executes them in memory. Neither can make the planner do I/O.
import { PRIORITY_CLASSES } from "../catalog/model-definition";
import type { ExistingReplica } from "../placement/types";
import { planModel, type PassState } from "./plan-model";
import { asWhole, shardsOf } from "./shards";
import type { DesiredModel, ObservedReplica, ReconcileAction, ReconcileInput } from "./types";

export interface ReconcilePlan {
  actions: ReconcileAction[];
}

/** Every shard's cards count: a replica spanning nodes holds cards on each of them. */
function existingFrom(
  replicas: readonly ObservedReplica[],
  byName: Map<string, DesiredModel>,
): ExistingReplica[] {
  return replicas
    .filter((replica) => replica.phase !== "stopped")
    .map((replica) => {
      const profile = byName
        .get(replica.model)
        ?.definition.profiles.find((p) => p.name === replica.profile);
      return {
        id: replica.id,
        model: replica.model,
        shards: shardsOf(replica).map((shard) => ({
          nodeId: shard.nodeId,
          cardIndexes: shard.gpuIndexes,
        })),
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
  // A replica spanning nodes is planned as a whole: ready when every shard is, failed when one is.
  const replicas = input.replicas.map(asWhole);
  const replicasByModel = new Map<string, ObservedReplica[]>();
  for (const replica of replicas) {
    const list = replicasByModel.get(replica.model);
    if (list) list.push(replica);
    else replicasByModel.set(replica.model, [replica]);
  }
  const healthByName = new Map(input.health.map((health) => [health.name, health]));
  const state: PassState = {
    input,
    nodesById: new Map(input.nodes.map((node) => [node.node.id, node])),
    placementNodes: input.nodes.map((node) => node.node),
    existing: existingFrom(replicas, byName),
    lostAnnounced: new Set(),
  };
  const names = input.only ?? new Set([...byName.keys(), ...replicasByModel.keys()]);
  const actions: ReconcileAction[] = [];
  for (const name of planOrder(new Set(names), byName)) {
    const replicas = replicasByModel.get(name) ?? [];
    actions.push(...planModel(name, byName.get(name), replicas, healthByName.get(name), state));
  }
  return { actions };
}
