// The placement index kept between planning passes. Indexing the nodes (their classes, domains,
// cached sources, the lists by class and by domain) was about a fifth of a full pass at 10,000
// nodes and allocated a record per node that every collection then copied; it depends on the
// nodes alone. A caller that plans pass after pass (the reconciler) keeps one cache: while the
// nodes are the same objects in the same order, a pass empties the kept index of the last pass's
// replicas and counts its own, instead of indexing every node again. Nodes are compared by
// identity, so a caller that changes a node passes a new object for it (inputs are never changed
// in place), and any node that differs rebuilds the index. The answer is the same either way.
import { addReplica, buildFleet, clearFleet } from "./fleet";
import type { Fleet } from "./fleet-types";
import type { ExistingReplica, PlacementNode } from "./types";

export interface FleetCache {
  /** The nodes the kept fleet was built over, in order (a copy: the caller's array may change). */
  nodes?: readonly PlacementNode[];
  fleet?: Fleet;
  /** Passes that reused the kept index and passes that built one: for tests and benchmarks. */
  reused: number;
  built: number;
}

export function createFleetCache(): FleetCache {
  return { reused: 0, built: 0 };
}

/** Whether two lists hold the same objects in the same order. */
export function sameItems<T>(a: readonly T[] | undefined, b: readonly T[]): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let at = 0; at < b.length; at += 1) if (a[at] !== b[at]) return false;
  return true;
}

/**
 * A fleet over `nodes` and `replicas`, equal to `buildFleet(nodes, replicas)`: the cache's own,
 * emptied and refilled, when it was built over the same nodes; otherwise a new one it keeps. The
 * fleet returned is the cache's until the next call, which empties it.
 */
export function fleetFrom(
  cache: FleetCache | undefined,
  nodes: readonly PlacementNode[],
  replicas: readonly ExistingReplica[],
): Fleet {
  if (cache === undefined) return buildFleet(nodes, replicas);
  const kept = cache.fleet;
  if (kept !== undefined && sameItems(cache.nodes, nodes)) {
    clearFleet(kept);
    for (const replica of replicas) addReplica(kept, replica);
    cache.reused += 1;
    return kept;
  }
  const fleet = buildFleet(nodes, replicas);
  cache.nodes = [...nodes];
  cache.fleet = fleet;
  cache.built += 1;
  return fleet;
}
