// What a reconciler keeps from one planning pass to the next: the node map, reused while the
// nodes are the same objects in the same order, and the placement index over the nodes, reused
// while they are or differ only in what indexing ignores (see placement/fleet-cache.ts). A pass
// over a settled fleet then looks up no node it did not need to, and a pass that places reuses
// every node's record. Planning gives the same actions with or
// without it; the tests hold the two to each other.
import { createFleetCache, sameItems, type FleetCache } from "../placement/fleet-cache";
import type { PlacementNode } from "../placement/types";
import { nodesByIdOf } from "../quota/accounting";
import type { ReconcileNode } from "./types";

export interface PlanCache {
  /** The nodes of the last pass, in order (a copy: the caller's array may change). */
  nodes?: readonly ReconcileNode[];
  nodesById?: ReadonlyMap<string, ReconcileNode>;
  /** The nodes as placement reads them, made on the first pass that places. */
  placementNodes?: readonly PlacementNode[];
  fleet: FleetCache;
}

export function createPlanCache(): PlanCache {
  return { fleet: createFleetCache() };
}

/** The nodes by id: the cache's while the nodes are the same; otherwise made (and kept). */
export function nodesByIdFrom(
  cache: PlanCache | undefined,
  nodes: readonly ReconcileNode[],
): ReadonlyMap<string, ReconcileNode> {
  if (cache === undefined) return nodesByIdOf(nodes);
  if (cache.nodesById !== undefined && sameItems(cache.nodes, nodes)) return cache.nodesById;
  const nodesById = nodesByIdOf(nodes);
  cache.nodes = [...nodes];
  cache.nodesById = nodesById;
  cache.placementNodes = undefined;
  return nodesById;
}
