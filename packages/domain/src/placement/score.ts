// Among the nodes that pass every check, which one is best. Scores are tuples compared in order,
// so each rule only breaks the ties of the ones before it and the order reads as the policy.
import { freeOf } from "./fleet";
import type { Fleet, NodeUsage } from "./fleet-types";
import { freeCardsTotal, hasCards, memoryShareOf } from "./node-index";
import { domainOf } from "../facility/domains";
import { nearCount, spreadReasons } from "./spread";
import type { PlacementRequest } from "./types";

export type Score = readonly number[];

export function compareScores(a: Score, b: Score): number {
  for (let index = 0; index < a.length; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The first class, most fitting first, with enough free cards on this node. */
export function classOnNode(
  usage: NodeUsage,
  classes: readonly string[],
  gpus: number,
): string | undefined {
  for (const gpuClass of classes) if (freeOf(usage, gpuClass) >= gpus) return gpuClass;
  return undefined;
}

/**
 * Whether a node's score is surely worse than `worst`, judged only from numbers the node's own
 * record holds. Every score starts with two counts that are never below zero, so when `worst` has
 * both at zero the next terms (free cards left over for a GPU request; cards, then replicas, for a
 * CPU one) already decide it. Weighing a node otherwise reads its model counts and domains, each
 * elsewhere in memory; at 10,000 nodes those reads, not the arithmetic, were the search's cost.
 */
export function cannotBeat(usage: NodeUsage, request: PlacementRequest, worst: Score): boolean {
  if (worst[0] !== 0 || worst[1] !== 0) return false;
  const third = worst[2] ?? 0;
  if (request.gpu !== undefined) return freeCardsTotal(usage) - request.gpus > third;
  const cards = hasCards(usage) ? 1 : 0;
  return cards > third || (cards === third && usage.replicaCount > (worst[3] ?? 0));
}

/**
 * Lower is better. First, a model's replicas go to nodes holding fewer of them, so losing one
 * node loses as few of its replicas as possible, and then to racks and PDUs holding fewer (a rack
 * or a PDU fails as a whole). Then GPU replicas pack onto the fullest node
 * that fits, leaving whole nodes free for replicas that need all their cards, while CPU replicas
 * go to nodes without cards first (a GPU node's cores and memory feed its cards' replicas) and
 * spread there, since nothing allocates cores to stop two of them contending on one machine. Cached
 * weights and smaller cards (for a need) break the remaining ties; the node's place in the
 * input breaks the last, so the same input always gives the same answer. A caller weighing many
 * nodes passes `into`, one array filled again for each, so the losers allocate nothing.
 */
export function scoreNode(
  usage: NodeUsage,
  request: PlacementRequest,
  gpuClass: string | undefined,
  fleet: Fleet,
  into?: number[],
): Score {
  const sameModel = usage.modelCounts?.get(request.model) ?? 0;
  const near = usage.spreadDomains.length === 0 ? 0 : nearCount(fleet, usage, request.model);
  const notCached = usage.cachedSources.has(request.source) ? 0 : 1;
  if (gpuClass === undefined)
    return terms(
      into,
      sameModel,
      near,
      hasCards(usage) ? 1 : 0,
      usage.replicaCount,
      memoryShareOf(usage),
      notCached,
    );
  const cardsLeftOver = freeCardsTotal(usage) - request.gpus;
  const cardMemoryGb = fleet.classes.get(gpuClass)?.memoryGb ?? 0;
  return terms(into, sameModel, near, cardsLeftOver, notCached, cardMemoryGb, 0);
}

/**
 * The score terms that set a fitting node apart, in words, for explain-placement: why a node that
 * fits was or was not chosen. Terms every node shares the same way say nothing and are left out.
 */
export function rankingReasons(
  usage: NodeUsage,
  request: PlacementRequest,
  fleet: Fleet,
): string[] {
  const reasons: string[] = [];
  const sameModel = usage.modelCounts?.get(request.model) ?? 0;
  if (sameModel > 0)
    reasons.push(
      `holds ${sameModel} replica${sameModel === 1 ? "" : "s"} of ${request.model} already; replicas spread across nodes`,
    );
  reasons.push(...spreadReasons(fleet, usage, request.model));
  const within =
    request.keepWithin === undefined ? undefined : domainOf(usage.node.labels, request.keepWithin);
  if (request.keepWithin !== undefined && request.nodes > 1 && within !== undefined)
    reasons.push(
      `in ${request.keepWithin} ${within}; every shard of a replica stays within one ${request.keepWithin}`,
    );
  if (request.gpu === undefined)
    reasons.push(
      hasCards(usage)
        ? "has GPUs; CPU replicas go to nodes without cards first"
        : "has no GPUs, where CPU replicas go first",
    );
  return reasons;
}

/** How many terms a score has: the length of a caller's scratch array. */
export const SCORE_TERMS = 6;

// Six plain parameters rather than a rest array: this runs for every node a search weighs, and a
// caller passing `into` must allocate nothing.
function terms(
  into: number[] | undefined,
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
): Score {
  if (into === undefined) return [a, b, c, d, e, f];
  into[0] = a;
  into[1] = b;
  into[2] = c;
  into[3] = d;
  into[4] = e;
  into[5] = f;
  return into;
}
