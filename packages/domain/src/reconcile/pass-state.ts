// The state one planning pass shares between the models it plans, so a model planned later sees
// what earlier ones placed, stopped and took back.
import type { Fleet } from "../placement/fleet-types";
import type { ExistingReplica, PlacementNode } from "../placement/types";
import type { QuotaPass } from "./quota-pass";
import { shardsOf } from "./shards";
import type { DesiredModel, ObservedReplica, ReconcileInput, ReconcileNode } from "./types";

/** State shared by every model of one pass, so later models see what earlier ones placed. */
export interface PassState {
  input: ReconcileInput;
  byName: ReadonlyMap<string, DesiredModel>;
  nodesById: ReadonlyMap<string, ReconcileNode>;
  /** The nodes as placement reads them; built at the pass's first placement (`placementNodesOf`). */
  placementNodes?: readonly PlacementNode[];
  /**
   * Every replica the pass started with that holds resources, as placement reads it: what the
   * placement index is built from at the pass's first placement (`existingOf`; a pass that places
   * nothing never reads it), and where making room finds its candidates' records. The replicas
   * the pass places are counted in the index, not added here: nothing read them here, and their
   * records were one more object per placement for the collector to copy.
   */
  existing?: ExistingReplica[];
  /**
   * The placement index over `placementNodes` and `existing`, built at the pass's first placement
   * and kept up to date by it (placement adds what it places), so
   * a pass over many models indexes the fleet once rather than once per model.
   */
  fleet?: Fleet;
  lostAnnounced: Set<string>;
  /** Replicas the models planned so far stopped; making room never picks them again. */
  stopped: Set<string>;
  /** What each scope holds against its quota (summed on first use); absent when no scope has one. */
  quota?: QuotaPass;
  /** Built on the first attempt in the pass to make room by stopping other replicas. */
  room?: RoomState;
}

/** What making room (taking borrowed capacity back, evicting the idle) keeps within a pass. */
export interface RoomState {
  existingById: Map<string, ExistingReplica>;
  /** Replicas that may be taken back for a scope within its guarantee, by node; on first use. */
  borrowed?: Map<string, ObservedReplica[]>;
  /** Replicas that may be evicted as idle, by node; on first use. */
  idle?: Map<string, ObservedReplica[]>;
  /** Replicas this pass stopped to make room: never chosen twice, nor counted by their model. */
  taken: Set<string>;
  /** Nodes where this pass made room: the freed room is spoken for until the next pass. */
  usedNodes: Set<string>;
}

export function placementNodesOf(state: PassState): readonly PlacementNode[] {
  if (state.placementNodes) return state.placementNodes;
  // The cache's list is valid for this pass: planReconcile checked its nodes first.
  const cache = state.input.cache;
  const nodes = cache?.placementNodes ?? state.input.nodes.map((node) => node.node);
  if (cache) cache.placementNodes = nodes;
  state.placementNodes = nodes;
  return nodes;
}

/** The pass's placement view of every live replica, built on first use. */
export function existingOf(state: PassState): ExistingReplica[] {
  if (state.existing) return state.existing;
  const existing: ExistingReplica[] = [];
  for (const replica of state.input.replicas) {
    if (replica.phase === "stopped") continue;
    const profile = state.byName
      .get(replica.model)
      ?.definition.profiles.find((p) => p.name === replica.profile);
    existing.push({
      id: replica.id,
      model: replica.model,
      // Every shard's cards count: a replica spanning nodes holds cards on each of them.
      shards: shardsOf(replica).map((shard) => ({
        nodeId: shard.nodeId,
        cardIndexes: shard.gpuIndexes,
      })),
      memoryGb: profile?.memory_gb ?? 0,
      cpuCores: profile?.cpu_cores ?? 0,
      drawWattsPerCard: profile?.power_watts_per_card,
    });
  }
  state.existing = existing;
  return existing;
}
