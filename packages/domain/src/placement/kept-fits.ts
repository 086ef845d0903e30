// The list of fits a search keeps, best first, written over from search to search: its records,
// and how a fit enters it. Made per search, the list, each fit and its score were most of what a
// placement allocated; search.ts fills it.
import type { NodeUsage } from "./fleet-types";
import { compareScores, SCORE_TERMS, type Score } from "./score";

export interface Fit {
  usage: NodeUsage;
  gpuClass: string | undefined;
  score: Score;
}

interface RankedFit extends Fit {
  /** The node's place among the candidates, as exhaustiveFits would meet it: the last tie-break. */
  order: number;
}

/** A fit as a search keeps it: a record written over by later searches, its score included. */
export interface KeptFit extends RankedFit {
  usage: NodeUsage;
  gpuClass: string | undefined;
  score: number[];
  order: number;
}

/**
 * The fits a search keeps, best first: the first `size` of `fits`. One list for every search, as
 * none runs inside another, written over and never cut; its records past `size` are free for
 * the next fit, and every slot holds a record of its own (a fit entering the list takes the free
 * record in place, so no two slots share one). Made per search, the list, each fit and its score
 * were most of what a placement allocated. `keptFits` hands the list itself to a caller that reads
 * it before the next search; `bestFits` copies it out.
 */
export interface KeptFits {
  readonly fits: readonly Fit[];
  readonly size: number;
}

export interface KeptList {
  fits: KeptFit[];
  size: number;
}

export const KEPT: KeptList = { fits: [], size: 0 };

/** The record at `at` of the kept list, made there the first time a search needs that many. */
export function spareAt(found: KeptList, at: number, usage: NodeUsage): KeptFit {
  let fit = found.fits[at];
  if (fit === undefined) {
    const score = new Array<number>(SCORE_TERMS).fill(0);
    fit = { usage, gpuClass: undefined, score, order: 0 };
    found.fits[at] = fit;
  }
  return fit;
}

function byRank(a: KeptFit, b: KeptFit): number {
  return compareScores(a.score, b.score) || a.order - b.order;
}

/** Whether a fit with this score and order would be among the best `wanted` kept so far. */
export function wouldEnter(best: KeptList, wanted: number, score: Score, order: number): boolean {
  const worst = best.size < wanted ? undefined : best.fits[wanted - 1];
  return worst === undefined || (compareScores(score, worst.score) || order - worst.order) < 0;
}

/**
 * Enters a fit into `best` (kept best first), dropping whatever falls past `wanted`: written into
 * the free record past the end, or into the one that falls off, which then moves to its place.
 */
export function offer(
  best: KeptList,
  wanted: number,
  usage: NodeUsage,
  gpuClass: string | undefined,
  score: readonly number[],
  order: number,
): void {
  const free = best.size < wanted ? best.size : wanted - 1;
  const fit = spareAt(best, free, usage);
  fit.usage = usage;
  fit.gpuClass = gpuClass;
  for (let term = 0; term < SCORE_TERMS; term += 1) fit.score[term] = score[term] as number;
  fit.order = order;
  let at = free;
  while (at > 0 && byRank(best.fits[at - 1] as KeptFit, fit) > 0) at -= 1;
  // Those after it move down one place, into the slot its record came from.
  for (let to = free; to > at; to -= 1) best.fits[to] = best.fits[to - 1] as KeptFit;
  best.fits[at] = fit;
  best.size = free + 1;
}
