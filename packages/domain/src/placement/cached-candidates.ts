// The nodes caching a request's weights that a search weighs one by one (they score better than
// the ordered lists say), narrowed to those that could be its candidates.
import type { Fleet, NodeUsage } from "./fleet-types";
import type { PlacementRequest } from "./types";

const NO_NODES: readonly NodeUsage[] = [];

/** Whether the node has a card of one of the classes: isCandidate for a request with cards. */
function hasClassOf(usage: NodeUsage, classes: readonly string[]): boolean {
  for (const gpuClass of usage.gpuClasses) if (classes.includes(gpuClass)) return true;
  return false;
}

/**
 * The nodes caching the request's weights that could be its candidates: for a request with cards,
 * those with a card of one of its classes (see Fleet.cachedByClasses); the others are refused by
 * isCandidate whatever their state, so leaving them out changes no answer.
 */
export function cachedCandidates(
  fleet: Fleet,
  request: PlacementRequest,
  classes: readonly string[],
): readonly NodeUsage[] {
  const all = fleet.nodesBySource.get(request.source) ?? NO_NODES;
  if (request.gpu === undefined || all.length === 0) return all;
  let bySource = fleet.cachedByClasses.get(classes);
  if (bySource === undefined) {
    bySource = new Map();
    fleet.cachedByClasses.set(classes, bySource);
  }
  let candidates = bySource.get(request.source);
  if (candidates === undefined) {
    candidates = all.filter((usage) => hasClassOf(usage, classes));
    bySource.set(request.source, candidates);
  }
  return candidates;
}
