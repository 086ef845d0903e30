// Finding the best nodes for a request without scoring every node of its class. The ordered
// lists (node-index.ts) visit nodes best first for a request that no node treats specially, so the
// first nodes that pass are the answer. Three kinds of node break that order and are weighed one
// by one instead: nodes with cards of several classes, nodes that cache the request's weights
// (they score better) and nodes already holding its model (they score worse). Ties go to the
// node met first in the original candidate order, so the answer is exactly what scoring every
// candidate would give; exhaustiveFits does that and the tests hold the two to each other.
import type { Fleet, NodeUsage, OrderedNodes, SearchResume, SortedNodes } from "./fleet-types";
import { cachedCandidates } from "./cached-candidates";
import { classIndex, cpuIndexes, cpuWithCards } from "./node-index";
import { nodeFits, type NodeCheck } from "./predicates";
import { blockOf, slotOf } from "./sorted-nodes";
import {
  KEPT,
  offer,
  spareAt,
  wouldEnter,
  type Fit,
  type KeptFit,
  type KeptFits,
  type KeptList,
} from "./kept-fits";
import { cannotBeat, classOnNode, compareScores, SCORE_TERMS, scoreNode } from "./score";
import { isNearModel, letGoNear, nodesNearModel } from "./spread";
import type { PlacementPolicy, PlacementRequest } from "./types";

export type { Fit } from "./kept-fits";

/** A node's first class in the request's list, which is where the candidate union meets it. */
function classRank(usage: NodeUsage, classes: readonly string[]): number {
  if (classes.length <= 1) return 0;
  // A loop rather than findIndex: its closure was made for every node weighed.
  for (let rank = 0; rank < classes.length; rank += 1)
    if (usage.gpuClasses.includes(classes[rank] as string)) return rank;
  return classes.length;
}

function isCandidate(usage: NodeUsage, check: NodeCheck): boolean {
  if (check.request.gpu === undefined) return true;
  if (usage.soleClass !== undefined) return check.classes.includes(usage.soleClass);
  for (const gpuClass of usage.gpuClasses) if (check.classes.includes(gpuClass)) return true;
  return false;
}

/**
 * The fit of the node `check` holds, written into the free record at `found`'s end: its score is
 * computed into that record's own array, so a fit costs no allocation once the list has grown.
 */
function fitInto(check: NodeCheck, fleet: Fleet, rank: number, found: KeptList): void {
  const { request, usage, classes } = check;
  const gpuClass =
    request.gpu === undefined ? undefined : classOnNode(usage, classes, request.gpus);
  const fit = spareAt(found, found.size, usage);
  fit.usage = usage;
  fit.gpuClass = gpuClass;
  scoreNode(usage, request, gpuClass, fleet, fit.score);
  fit.order = rank * fleet.nodes.length + usage.position;
  found.size += 1;
}

function isSetApart(fleet: Fleet, usage: NodeUsage, request: PlacementRequest): boolean {
  return (
    usage.modelCounts?.has(request.model) === true ||
    usage.cachedSources.has(request.source) ||
    isNearModel(fleet, usage, request.model)
  );
}

/** The check every search writes over, node by node: made at the first search. */
let CHECK: NodeCheck | undefined;

/**
 * Reads one bucket front to back (from the first node not before `from`, when given), adding the
 * nodes that pass until `wanted` are found.
 */
function takeFrom(
  list: SortedNodes | undefined,
  check: NodeCheck,
  rank: number,
  found: KeptList,
  fleet: Fleet,
  wanted: number,
  from?: NodeUsage,
): boolean {
  if (list === undefined) return false;
  const { blocks } = list;
  let at = from === undefined ? 0 : blockOf(list, from);
  let slot = from === undefined ? 0 : slotOf(list, blocks[at] ?? [], from);
  for (; at < blocks.length; at += 1, slot = 0) {
    const block = blocks[at] as NodeUsage[];
    for (; slot < block.length; slot += 1) {
      const usage = block[slot] as NodeUsage;
      if (isSetApart(fleet, usage, check.request)) continue;
      check.usage = usage;
      if (nodeFits(check)) fitInto(check, fleet, rank, found);
      if (found.size >= wanted) return true;
    }
  }
  return false;
}

/**
 * Where to start reading a class's lists for one node: where the last search stopped, when it ran
 * with this very request over this index and the fleet changed since by at most a replica of the
 * request's model (see SearchResume); else undefined, and the search reads from the front.
 */
function resumeFor(
  fleet: Fleet,
  request: PlacementRequest,
  index: OrderedNodes,
): SearchResume | undefined {
  const resume = fleet.resume;
  if (resume.request !== request || resume.index !== index) return undefined;
  const since = fleet.version - resume.version;
  if (since === 0 || (since === 1 && fleet.lastModel === request.model)) return resume;
  return undefined;
}

/** Reads a one-class request's lists, from where the last search for it stopped if it may. */
function classFits(
  fleet: Fleet,
  check: NodeCheck,
  index: OrderedNodes,
  wanted: number,
  found: KeptList,
): void {
  const resume = wanted === 1 ? resumeFor(fleet, check.request, index) : undefined;
  const start = resume === undefined ? check.request.gpus : resume.free;
  const from = resume?.at;
  let free = start;
  for (; free < index.buckets.length; free += 1)
    if (
      takeFrom(
        index.buckets[free],
        check,
        0,
        found,
        fleet,
        wanted,
        free === start ? from : undefined,
      )
    )
      break;
  if (wanted !== 1) return;
  const kept = fleet.resume;
  kept.request = check.request;
  kept.index = index;
  kept.version = fleet.version;
  kept.free = free;
  kept.at = found.size > 0 ? (found.fits[0] as KeptFit).usage : undefined;
}

/** The best `wanted` nodes among those the ordered lists rank correctly, best first, in `found`. */
function orderedFits(fleet: Fleet, check: NodeCheck, wanted: number, found: KeptList): void {
  const { roleLabel } = check.policy;
  const role = check.request.nodeSelector[roleLabel] ?? "";
  if (check.request.gpu === undefined) {
    // Nodes without cards first, each list by replica count: the order of the CPU score.
    const lists = cpuIndexes(fleet, roleLabel, role);
    for (const list of lists.withoutCards.buckets)
      if (takeFrom(list, check, 0, found, fleet, wanted)) return;
    for (const list of cpuWithCards(fleet, lists, roleLabel, role).buckets)
      if (takeFrom(list, check, 0, found, fleet, wanted)) return;
    return;
  }
  // Fewest free cards first (packing), then the classes in the request's order, then position.
  if (check.classes.length === 1) {
    classFits(
      fleet,
      check,
      classIndex(fleet, check.classes[0] as string, roleLabel, role),
      wanted,
      found,
    );
    return;
  }
  // One list for every search, written over: a `map` here made a list and a closure per search.
  const indexes = CLASS_INDEXES;
  const count = check.classes.length;
  let mostFree = 0;
  for (let rank = 0; rank < count; rank += 1) {
    const index = classIndex(fleet, check.classes[rank] as string, roleLabel, role);
    indexes[rank] = index;
    mostFree = Math.max(mostFree, index.buckets.length - 1);
  }
  takeByFree(fleet, indexes, count, mostFree, check, found, wanted);
  // Let go, so the list keeps no fleet's index alive past its search.
  indexes.fill(undefined, 0, count);
}

/** Reads several classes' lists together: fewest free cards first, then the classes in order. */
function takeByFree(
  fleet: Fleet,
  indexes: readonly (OrderedNodes | undefined)[],
  count: number,
  mostFree: number,
  check: NodeCheck,
  found: KeptList,
  wanted: number,
): void {
  for (let free = check.request.gpus; free <= mostFree; free += 1)
    for (let rank = 0; rank < count; rank += 1)
      if (takeFrom(indexes[rank]?.buckets[free], check, rank, found, fleet, wanted)) return;
}

/** The class indexes of a request naming several classes, in its order: see orderedFits. */
const CLASS_INDEXES: (OrderedNodes | undefined)[] = [];

const NO_NODES: readonly NodeUsage[] = [];
/**
 * The score weighEach computes each node's into: one for every search, as none runs inside
 * another and a fit that enters the best keeps a copy. Made per search, it was an allocation per
 * placement even when no node needed weighing.
 */
const SCRATCH: number[] = new Array<number>(SCORE_TERMS).fill(0);

/**
 * Weighs each node the `keep` kind lets through against the best kept so far. The score is computed into
 * a scratch array and the checks run only for a node that would enter, so the many cached-weight
 * nodes that lose to a tightly packed one cost no allocation and no predicate chain.
 */
function weighEach(
  nodes: readonly (NodeUsage | undefined)[],
  size: number,
  check: NodeCheck,
  fleet: Fleet,
  keep: Keep,
  best: KeptList,
  scratch: number[],
): void {
  const { request, classes } = check;
  const wanted = request.nodes > 1 ? request.nodes : 1;
  // By index: one loop for every list, where a `for…of` over lists and Sets alike made a
  // record per node read once V8 had seen both.
  for (let at = 0; at < size; at += 1) {
    const usage = nodes[at] as NodeUsage;
    const worst = best.size < wanted ? undefined : best.fits[wanted - 1];
    if (worst !== undefined && cannotBeat(usage, request, worst.score)) continue;
    if (!keeps(keep, fleet, usage, request) || !isCandidate(usage, check)) continue;
    const gpuClass =
      request.gpu === undefined ? undefined : classOnNode(usage, classes, request.gpus);
    // No class with enough free cards: the cards check would refuse this node.
    if (request.gpu !== undefined && gpuClass === undefined) continue;
    const order = classRank(usage, classes) * fleet.nodes.length + usage.position;
    if (!wouldEnter(best, wanted, scoreNode(usage, request, gpuClass, fleet, scratch), order))
      continue;
    check.usage = usage;
    if (!nodeFits(check)) continue;
    offer(best, wanted, usage, gpuClass, scratch, order);
  }
}

// Each node is weighed by one pass only: a node near the model (its rack or PDU holds a replica)
// by the near pass, one holding the model but in no such domain by the model pass. Which nodes a
// pass keeps is a number rather than a function handed in: one call site meeting four functions
// was a call V8 could not inline, for every node weighed.
const ANY_NODE = 0;
const WITHOUT_MODEL = 1;
const WITHOUT_MODEL_OR_WEIGHTS = 2;
const NOT_NEAR = 3;
type Keep =
  typeof ANY_NODE | typeof WITHOUT_MODEL | typeof WITHOUT_MODEL_OR_WEIGHTS | typeof NOT_NEAR;

function keeps(keep: Keep, fleet: Fleet, usage: NodeUsage, request: PlacementRequest): boolean {
  if (keep === ANY_NODE) return true;
  if (keep === NOT_NEAR) return !isNearModel(fleet, usage, request.model);
  const withoutModel =
    usage.modelCounts?.has(request.model) !== true && !isNearModel(fleet, usage, request.model);
  if (keep === WITHOUT_MODEL) return withoutModel;
  return withoutModel && !usage.cachedSources.has(request.source);
}

/**
 * The best nodes for a request: one, or `request.nodes` for a multi-node replica, best first, in
 * the list every search writes over (see KeptFits): read it before the next search.
 */
export function keptFits(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
): KeptFits {
  const best = KEPT;
  best.size = 0;
  const first = fleet.nodes[0];
  if (first === undefined) return best;
  // With no cards asked for, a node's chosen class need not be one it has, which the lists do
  // not model; such requests are odd enough to score the old way.
  if (request.gpu !== undefined && !(request.gpus >= 1)) {
    const fits = exhaustiveFits(fleet, policy, request, classes);
    return { fits, size: fits.length };
  }
  const wanted = request.nodes > 1 ? request.nodes : 1;
  // One check object for every node and every search, so reading the lists allocates nothing.
  const check = (CHECK ??= { request, usage: first, policy, classes, fleet });
  check.request = request;
  check.usage = first;
  check.policy = policy;
  check.classes = classes;
  check.fleet = fleet;
  // The ordered lists give their best already in order; the nodes they cannot rank join after.
  orderedFits(fleet, check, wanted, best);
  const scratch = SCRATCH;
  if (request.gpu !== undefined) {
    const multiClass = fleet.multiClassNodes;
    weighEach(multiClass, multiClass.length, check, fleet, WITHOUT_MODEL_OR_WEIGHTS, best, scratch);
  }
  const cached = cachedCandidates(fleet, request, classes);
  weighEach(cached, cached.length, check, fleet, WITHOUT_MODEL, best, scratch);
  // A node holding the model, or in a rack or PDU that does, loses to any that is neither, so those
  // are weighed only when too few fit; then both kinds, as either may beat the other.
  if (best.size < wanted) {
    const near = nodesNearModel(fleet, request.model);
    if (near !== undefined) {
      weighEach(near.nodes, near.size, check, fleet, ANY_NODE, best, scratch);
      letGoNear(near);
    }
    const holding = fleet.nodesByModel.get(request.model) ?? NO_NODES;
    weighEach(holding, holding.length, check, fleet, NOT_NEAR, best, scratch);
  }
  return best;
}

/** The best nodes for a request, as keptFits finds them, in records of their own. */
export function bestFits(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
): Fit[] {
  const { fits, size } = keptFits(fleet, policy, request, classes);
  const copies = new Array<Fit>(size);
  for (let at = 0; at < size; at += 1) {
    const { usage, gpuClass, score } = fits[at] as Fit;
    copies[at] = { usage, gpuClass, score: [...score] };
  }
  return copies;
}

export function candidatesFor(
  fleet: Fleet,
  request: PlacementRequest,
  classes: readonly string[],
): NodeUsage[] {
  if (request.gpu === undefined) return fleet.nodes;
  if (classes.length === 1) return fleet.nodesByClass.get(classes[0] as string) ?? [];
  const union = new Set<NodeUsage>();
  for (const gpuClass of classes)
    for (const usage of fleet.nodesByClass.get(gpuClass) ?? []) union.add(usage);
  return [...union];
}

/** Scores every candidate: the reference bestFits must agree with, and the path for odd requests. */
export function exhaustiveFits(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
): Fit[] {
  const fits: Fit[] = [];
  let best: Fit | undefined;
  for (const usage of candidatesFor(fleet, request, classes)) {
    if (!nodeFits({ request, usage, policy, classes, fleet })) continue;
    const gpuClass =
      request.gpu === undefined ? undefined : classOnNode(usage, classes, request.gpus);
    const fit = { usage, gpuClass, score: scoreNode(usage, request, gpuClass, fleet) };
    // One node needs only the best; several need the best few, so only then is a list kept.
    if (request.nodes > 1) fits.push(fit);
    else if (!best || compareScores(fit.score, best.score) < 0) best = fit;
  }
  if (request.nodes > 1)
    return fits.sort((a, b) => compareScores(a.score, b.score)).slice(0, request.nodes);
  return best ? [best] : [];
}
