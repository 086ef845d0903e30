// The placement index kept between planning passes. Indexing the nodes (their classes, domains,
// cached sources, the lists by class and by domain) was about a fifth of a full pass at 10,000
// nodes and allocated a record per node that every collection then copied; it depends on the
// nodes alone. A caller that plans pass after pass (the reconciler) keeps one cache: while the
// nodes are the same in the same order, a pass empties the kept index of the last pass's replicas
// and counts its own, instead of indexing every node again. A node that is a new object is taken
// into its kept record when what indexing read of it is the same (its id, cards but their draw
// and health, rack and PDU, cached sources): a live node's record changes with every heartbeat (free disk,
// measured draw), and everything else placement reads from the node itself when it asks. Any
// other change rebuilds the index. Inputs are never changed in place, so a caller that changes a
// node passes a new object for it. The answer is the same either way.
import { addReplica, buildFleet, clearFleet, mostCardWattsOf } from "./fleet";
import type { Fleet } from "./fleet-types";
import { sameSpreadDomains } from "./spread";
import type { ExistingReplica, PlacementNode } from "./types";

export interface FleetCache {
  /** The nodes the kept fleet holds, in order (a copy: the caller's array may change). */
  nodes?: PlacementNode[];
  fleet?: Fleet;
  /** Passes that reused the kept index and passes that built one: for tests and benchmarks. */
  reused: number;
  built: number;
  /** Nodes taken into a kept record as new objects (a heartbeat changed what indexing ignores). */
  refreshed: number;
}

export function createFleetCache(): FleetCache {
  return { reused: 0, built: 0, refreshed: 0 };
}

/** Whether two lists hold the same objects in the same order. */
export function sameItems<T>(a: readonly T[] | undefined, b: readonly T[]): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let at = 0; at < b.length; at += 1) if (a[at] !== b[at]) return false;
  return true;
}

const NO_SOURCES: readonly string[] = [];

function sameSources(a: readonly string[] = NO_SOURCES, b: readonly string[] = NO_SOURCES) {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at += 1) if (a[at] !== b[at]) return false;
  return true;
}

/**
 * Whether an index built over `a` serves `b` once its record points at `b`: the same id, cards
 * alike but for their draw (which only the record's mostCardWatts keeps, set again here) and
 * health (counted again as the pass empties the record), the same rack and PDU and cached
 * sources. What else a node says (reachability, holds, labels, memory, disk, budgets) placement
 * reads from the node when it asks, and the ordered lists are rebuilt every pass.
 */
function sameIndexedFields(a: PlacementNode, b: PlacementNode): boolean {
  if (a.id !== b.id || a.cards.length !== b.cards.length) return false;
  for (let at = 0; at < a.cards.length; at += 1) {
    const [x, y] = [a.cards[at], b.cards[at]] as [
      PlacementNode["cards"][0],
      PlacementNode["cards"][0],
    ];
    if (
      x.index !== y.index ||
      x.gpuClass !== y.gpuClass ||
      x.memoryGb !== y.memoryGb ||
      x.computeCapability !== y.computeCapability
    )
      return false;
  }
  return sameSpreadDomains(a, b) && sameSources(a.cachedSources, b.cachedSources);
}

/**
 * Takes `nodes` into the kept fleet when each is the kept one or differs from it only in what
 * indexing ignores; false, and nothing changed, otherwise.
 */
function takeIn(cache: FleetCache, kept: Fleet, nodes: readonly PlacementNode[]): boolean {
  const before = cache.nodes;
  if (before === undefined || before.length !== nodes.length) return false;
  for (let at = 0; at < nodes.length; at += 1) {
    // Two reads, not a destructured pair: run once a pass, this loop is seldom optimised, and
    // the pair was a list and an iterator per node.
    const was = before[at] as PlacementNode;
    const now = nodes[at] as PlacementNode;
    if (was !== now && !sameIndexedFields(was, now)) return false;
  }
  for (let at = 0; at < nodes.length; at += 1) {
    const now = nodes[at] as PlacementNode;
    if (before[at] === now) continue;
    before[at] = now;
    const usage = kept.nodes[at] as Fleet["nodes"][0];
    usage.node = now;
    usage.mostCardWatts = mostCardWattsOf(now.cards);
    cache.refreshed += 1;
  }
  return true;
}

/**
 * A fleet over `nodes` and `replicas`, equal to `buildFleet(nodes, replicas)`: the cache's own,
 * emptied and refilled, when it was built over the same nodes (or nodes differing only in what
 * indexing ignores); otherwise a new one it keeps. The fleet returned is the cache's until the
 * next call, which empties it.
 */
export function fleetFrom(
  cache: FleetCache | undefined,
  nodes: readonly PlacementNode[],
  replicas: readonly ExistingReplica[],
): Fleet {
  if (cache === undefined) return buildFleet(nodes, replicas);
  const kept = cache.fleet;
  if (kept !== undefined && takeIn(cache, kept, nodes)) {
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
