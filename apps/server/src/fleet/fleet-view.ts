// The fleet as the gateway and the API services may see it: what they read of the catalog, the
// replica book, model health, the live registry and placement's verdicts, and nothing that
// writes. The reconciler owns that state; it builds this view once and hands it out.
import {
  shardsOf,
  type ExistingReplica,
  type LivenessPolicy,
  type PlacementNode,
} from "@llmgw/domain";
import type { CatalogStore } from "../catalog/catalog-store";
import type { Unplaceable } from "../reconcile/deps";
import type { ModelHealthBook } from "../reconcile/model-health";
import type { ReplicaBook } from "../reconcile/replica-book";
import { reconcileNodes } from "./placement-nodes";
import type { FleetRegistry } from "./registry";

export interface FleetView {
  readonly catalog: Pick<CatalogStore, "current" | "meta" | "externalKey">;
  readonly book: Pick<ReplicaBook, "get" | "all" | "active" | "onNode" | "ofModel" | "watch">;
  readonly health: Pick<ModelHealthBook, "get" | "all">;
  readonly registry: Pick<
    FleetRegistry,
    "get" | "all" | "history" | "facility" | "sources" | "heard"
  >;
  /** Models placement last refused, with why. */
  readonly unplaceable: ReadonlyMap<string, Unplaceable>;
  readonly liveness: LivenessPolicy;
  /** When the control plane started leading: nodes get a grace period to reconnect after it. */
  readonly startedAtMs: number;
  /** How long an on-demand model keeps its replica after its last request (absent: the default). */
  readonly onDemandIdleMs?: number;
  /** When a request last asked for the model; null when never. */
  demandedAtMs(model: string): number | null;
  /** Replicas autoscaling added above the model's base (0 on a standby, which decides nothing). */
  autoscaleAdded(model: string): number;
  nowMs(): number;
}

/** The nodes placement would plan against now, for explain-placement, presets and status. */
export function livePlacementNodes(fleet: FleetView): PlacementNode[] {
  return reconcileNodes(fleet.registry, [], fleet.nowMs(), fleet.liveness, fleet.startedAtMs).map(
    (n) => n.node,
  );
}

export function heldReplicas(fleet: FleetView): ExistingReplica[] {
  const catalog = fleet.catalog.current();
  return fleet.book.active().map((record) => {
    const profile = catalog.get(record.model)?.profiles.find((p) => p.name === record.profile);
    return {
      id: record.id,
      model: record.model,
      shards: shardsOf(record).map((s) => ({ nodeId: s.nodeId, cardIndexes: s.gpuIndexes })),
      memoryGb: profile?.memory_gb ?? 0,
      cpuCores: profile?.cpu_cores ?? 0,
      drawWattsPerCard: profile?.power_watts_per_card,
    };
  });
}
