// Finding the best nodes for a request without scoring every node of its class. The ordered
// lists (node-index.ts) visit nodes best first for a request that no node treats specially, so the
// first nodes that pass are the answer. Three kinds of node break that order and are weighed one
// by one instead: nodes with cards of several classes, nodes that cache the request's weights
// (they score better) and nodes already holding its model (they score worse). Ties go to the
// node met first in the original candidate order, so the answer is exactly what scoring every
// candidate would give; exhaustiveFits does that and the tests hold the two to each other.
import type { Fleet, NodeUsage, OrderedNodes, SearchResume, SortedNodes } from "./fleet-types";
import { classIndex, cpuIndexes, cpuWithCards } from "./node-index";
import { nodeFits, type NodeCheck } from "./predicates";
import { blockOf, slotOf } from "./sorted-nodes";
import {
  cannotBeat,
  classOnNode,
  compareScores,
  SCORE_TERMS,
  scoreNode,
  type Score,
} from "./score";
import { isNearModel, nodesNearModel } from "./spread";
import type { PlacementPolicy, PlacementRequest } from "./types";

export interface Fit {
  usage: NodeUsage;
  gpuClass: string | undefined;
  score: Score;
}

interface RankedFit extends Fit {
  /** The node's place among the candidates, as exhaustiveFits would meet it: the last tie-break. */
  order: number;
}

/** A node's first class in the request's list, which is where the candidate union meets it. */
function classRank(usage: NodeUsage, classes: readonly string[]): number {
  if (classes.length <= 1) return 0;
  const rank = classes.findIndex((gpuClass) => usage.gpuClasses.includes(gpuClass));
  return rank < 0 ? classes.length : rank;
}

function isCandidate(usage: NodeUsage, check: NodeCheck): boolean {
  if (check.request.gpu === undefined) return true;
  if (usage.soleClass !== undefined) return check.classes.includes(usage.soleClass);
  for (const gpuClass of usage.gpuClasses) if (check.classes.includes(gpuClass)) return true;
  return false;
}

function fitOf(check: NodeCheck, fleet: Fleet, rank: number): RankedFit {
  const { request, usage, classes } = check;
  const gpuClass =
    request.gpu === undefined ? undefined : classOnNode(usage, classes, request.gpus);
  const score = scoreNode(usage, request, gpuClass, fleet);
  return { usage, gpuClass, score, order: rank * fleet.nodes.length + usage.position };
}

function byRank(a: RankedFit, b: RankedFit): number {
  return compareScores(a.score, b.score) || a.order - b.order;
}

function isSetApart(fleet: Fleet, usage: NodeUsage, request: PlacementRequest): boolean {
  return (
    usage.modelCounts?.has(request.model) === true ||
    usage.cachedSources.has(request.source) ||
    isNearModel(fleet, usage, request.model)
  );
}

/**
 * The fits a search keeps, best first: the first `size` of `fits`. One list for every search, as
 * none runs inside another, written over and never cut; the search returns a copy at its final
 * length. A list made per search got a backing store of 17 slots at its first fit, for the one or
 * two a search keeps: the largest record of a placement.
 */
interface KeptFits {
  fits: RankedFit[];
  size: number;
}

const KEPT: KeptFits = { fits: [], size: 0 };

/**
 * Reads one bucket front to back (from the first node not before `from`, when given), adding the
 * nodes that pass until `wanted` are found.
 */
function takeFrom(
  list: SortedNodes | undefined,
  check: NodeCheck,
  rank: number,
  found: KeptFits,
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
      if (nodeFits(check)) found.fits[found.size++] = fitOf(check, fleet, rank);
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
  found: KeptFits,
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
  kept.at = found.size > 0 ? (found.fits[0] as RankedFit).usage : undefined;
}

/** The best `wanted` nodes among those the ordered lists rank correctly, best first, in `found`. */
function orderedFits(fleet: Fleet, check: NodeCheck, wanted: number, found: KeptFits): void {
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
  const indexes: OrderedNodes[] = check.classes.map((gpuClass) =>
    classIndex(fleet, gpuClass, roleLabel, role),
  );
  let mostFree = 0;
  for (const index of indexes) mostFree = Math.max(mostFree, index.buckets.length - 1);
  for (let free = check.request.gpus; free <= mostFree; free += 1)
    for (let rank = 0; rank < indexes.length; rank += 1)
      if (takeFrom(indexes[rank]?.buckets[free], check, rank, found, fleet, wanted)) return;
}

/** Whether a fit with this score and order would be among the best `wanted` kept so far. */
function wouldEnter(best: KeptFits, wanted: number, score: Score, order: number): boolean {
  const worst = best.size < wanted ? undefined : best.fits[wanted - 1];
  return worst === undefined || (compareScores(score, worst.score) || order - worst.order) < 0;
}

/** Inserts a fit into `best` (kept best first) and drops whatever falls past `wanted`. */
function offer(best: KeptFits, wanted: number, fit: RankedFit): void {
  let at = best.size;
  while (at > 0 && byRank(best.fits[at - 1] as RankedFit, fit) > 0) at -= 1;
  // Those after it move down one place; the one pushed past `wanted` falls off.
  const size = Math.min(best.size + 1, wanted);
  for (let to = size - 1; to > at; to -= 1) best.fits[to] = best.fits[to - 1] as RankedFit;
  best.fits[at] = fit;
  best.size = size;
}

const NO_NODES: readonly NodeUsage[] = [];
/**
 * The score weighEach computes each node's into: one for every search, as none runs inside
 * another and a fit that enters the best keeps a copy. Made per search, it was an allocation per
 * placement even when no node needed weighing.
 */
const SCRATCH: number[] = new Array<number>(SCORE_TERMS).fill(0);

/**
 * Weighs each node `keep` lets through against the best kept so far. The score is computed into
 * a scratch array and the checks run only for a node that would enter, so the many cached-weight
 * nodes that lose to a tightly packed one cost no allocation and no predicate chain.
 */
function weighEach(
  nodes: Iterable<NodeUsage> | undefined,
  check: NodeCheck,
  fleet: Fleet,
  keep: (fleet: Fleet, usage: NodeUsage, request: PlacementRequest) => boolean,
  best: KeptFits,
  scratch: number[],
): void {
  const { request, classes } = check;
  const wanted = request.nodes > 1 ? request.nodes : 1;
  for (const usage of nodes ?? NO_NODES) {
    const worst = best.size < wanted ? undefined : best.fits[wanted - 1];
    if (worst !== undefined && cannotBeat(usage, request, worst.score)) continue;
    if (!keep(fleet, usage, request) || !isCandidate(usage, check)) continue;
    const gpuClass =
      request.gpu === undefined ? undefined : classOnNode(usage, classes, request.gpus);
    // No class with enough free cards: the cards check would refuse this node.
    if (request.gpu !== undefined && gpuClass === undefined) continue;
    const order = classRank(usage, classes) * fleet.nodes.length + usage.position;
    if (!wouldEnter(best, wanted, scoreNode(usage, request, gpuClass, fleet, scratch), order))
      continue;
    check.usage = usage;
    if (!nodeFits(check)) continue;
    offer(best, wanted, { usage, gpuClass, score: [...scratch], order });
  }
}

// Each node is weighed by one pass only: a node near the model (its rack or PDU holds a replica)
// by the near pass, one holding the model but in no such domain by the model pass.
const withoutModel = (fleet: Fleet, usage: NodeUsage, request: PlacementRequest) =>
  usage.modelCounts?.has(request.model) !== true && !isNearModel(fleet, usage, request.model);
const withoutModelOrWeights = (fleet: Fleet, usage: NodeUsage, request: PlacementRequest) =>
  withoutModel(fleet, usage, request) && !usage.cachedSources.has(request.source);
const notNear = (fleet: Fleet, usage: NodeUsage, request: PlacementRequest) =>
  !isNearModel(fleet, usage, request.model);
const anyNode = () => true;

/** The best nodes for a request: one, or `request.nodes` for a multi-node replica, best first. */
export function bestFits(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
): Fit[] {
  const first = fleet.nodes[0];
  if (first === undefined) return [];
  // With no cards asked for, a node's chosen class need not be one it has, which the lists do
  // not model; such requests are odd enough to score the old way.
  if (request.gpu !== undefined && !(request.gpus >= 1))
    return exhaustiveFits(fleet, policy, request, classes);
  const wanted = request.nodes > 1 ? request.nodes : 1;
  // One check object reused for every node, so reading the lists allocates nothing per node.
  const check: NodeCheck = { request, usage: first, policy, classes, fleet };
  // The ordered lists give their best already in order; the nodes they cannot rank join after.
  const best = KEPT;
  best.size = 0;
  orderedFits(fleet, check, wanted, best);
  const scratch = SCRATCH;
  if (request.gpu !== undefined)
    weighEach(fleet.multiClassNodes, check, fleet, withoutModelOrWeights, best, scratch);
  weighEach(fleet.nodesBySource.get(request.source), check, fleet, withoutModel, best, scratch);
  // A node holding the model, or in a rack or PDU that does, loses to any that is neither, so those
  // are weighed only when too few fit; then both kinds, as either may beat the other.
  if (best.size < wanted) {
    weighEach(nodesNearModel(fleet, request.model), check, fleet, anyNode, best, scratch);
    weighEach(fleet.nodesByModel.get(request.model), check, fleet, notNear, best, scratch);
  }
  return best.fits.slice(0, best.size);
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
