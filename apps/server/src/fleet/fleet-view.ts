// The live fleet as placement reads it, for the read-only services (explain-placement, presets,
// status): the same nodes and held resources the reconciler plans against.
import type { ExistingReplica, PlacementNode } from "@llmgw/domain";
import { reconcileNodes } from "./placement-nodes";
import type { ReconcileDeps } from "../reconcile/deps";

export function livePlacementNodes(deps: ReconcileDeps): PlacementNode[] {
  return reconcileNodes(deps.registry, [], deps.nowMs(), deps.liveness, deps.startedAtMs).map(
    (n) => n.node,
  );
}

export function heldReplicas(deps: ReconcileDeps): ExistingReplica[] {
  const catalog = deps.catalog.current();
  return deps.book.active().map((record) => {
    const profile = catalog.get(record.model)?.profiles.find((p) => p.name === record.profile);
    return {
      id: record.id,
      model: record.model,
      shards: [{ nodeId: record.nodeId, cardIndexes: record.gpuIndexes }],
      memoryGb: profile?.memory_gb ?? 0,
      cpuCores: profile?.cpu_cores ?? 0,
    };
  });
}
