// Replicas per model in each rack and PDU, kept by model: for each model, the domains holding one
// of its replicas (in the order they got their first) and how many each holds. A pass places a
// model's replicas one after another, so counting one in its rack and PDU reads the model's own
// short lists, which the search for it has just read, and the domains' marks (see NearModel).
// Kept per domain instead (a map of models for each of the fleet's racks and PDUs), every count
// read a table no recent work had touched: at 10,000 nodes that one lookup was the largest line
// of a full pass. Readers that ask by domain (explain-placement, the tests) get DomainCounts, a
// view of the same lists.
import type { DomainMark } from "./fleet-types";

/**
 * One model's racks and PDUs: parallel lists, a domain's place fixed once it is added; only the
 * first `size` of each are the model's, the rest is left from an earlier pass (see DomainsByModel).
 */
export interface ModelDomains {
  size: number;
  domains: string[];
  counts: number[];
  /** Each domain's mark, so marking the model's domains looks up no names. */
  marks: DomainMark[];
}

/**
 * Model → its domains. Emptying it keeps the records and their lists for the next pass's models:
 * made anew per pass, a model's three lists grew twice each as its replicas arrived (a tenth of
 * what a full pass at 10,000 nodes allocated), and the server's every pass that places counts
 * every replica again. Models come back in the order they are counted, as in a new map.
 */
export class DomainsByModel {
  readonly byModel = new Map<string, ModelDomains>();
  private readonly free: ModelDomains[] = [];
  private freeSize = 0;

  /** The model's domains, or undefined when none holds a replica of it. */
  get(model: string): ModelDomains | undefined {
    return this.byModel.get(model);
  }

  /** The model's record, taken from the kept ones when it has none yet. */
  add(model: string): ModelDomains {
    let kept = this.freeSize > 0 ? this.free[(this.freeSize -= 1)] : undefined;
    if (kept === undefined) kept = { size: 0, domains: [], counts: [], marks: [] };
    kept.size = 0;
    this.byModel.set(model, kept);
    return kept;
  }

  clear(): void {
    for (const kept of this.byModel.values()) this.free[(this.freeSize += 1) - 1] = kept;
    this.byModel.clear();
  }
}

/**
 * Model → the racks and PDUs holding a replica of it (a view of DomainsByModel, read as a Map of
 * lists): its nodes score worse for the model than the index says.
 */
export class DomainsNearModel implements ReadonlyMap<string, readonly string[]> {
  constructor(private readonly kept: DomainsByModel) {}

  get size(): number {
    return this.kept.byModel.size;
  }

  get(model: string): readonly string[] | undefined {
    const kept = this.kept.get(model);
    return kept === undefined ? undefined : kept.domains.slice(0, kept.size);
  }

  has(model: string): boolean {
    return this.kept.byModel.has(model);
  }

  *entries(): MapIterator<[string, readonly string[]]> {
    for (const [model, kept] of this.kept.byModel) yield [model, kept.domains.slice(0, kept.size)];
  }

  *keys(): MapIterator<string> {
    yield* this.kept.byModel.keys();
  }

  *values(): MapIterator<readonly string[]> {
    for (const [, domains] of this.entries()) yield domains;
  }

  [Symbol.iterator](): MapIterator<[string, readonly string[]]> {
    return this.entries();
  }

  forEach(
    each: (
      domains: readonly string[],
      model: string,
      map: ReadonlyMap<string, readonly string[]>,
    ) => void,
  ): void {
    for (const [model, domains] of this.entries()) each(domains, model, this);
  }
}

/**
 * Adds one replica of `model` in `domain`; returns how many the domain held before. `mark` is the
 * domain's: while `serial` marks the model's domains, a marked domain holds the model and its
 * mark knows its place in the model's lists, so no list is searched.
 */
export function countInDomain(
  byModel: DomainsByModel,
  model: string,
  domain: string,
  mark: DomainMark,
  serial: number | undefined,
): number {
  let kept = byModel.get(model);
  if (serial !== undefined && mark.stamp === serial && kept !== undefined) {
    mark.count += 1;
    return (kept.counts[mark.at] as number)++;
  }
  const at = serial === undefined && kept !== undefined ? indexIn(kept, domain) : -1;
  if (kept !== undefined && at >= 0) return (kept.counts[at] as number)++;
  kept ??= byModel.add(model);
  const place = kept.size;
  // Written over, not pushed: the lists keep their length from earlier passes.
  kept.domains[place] = domain;
  kept.counts[place] = 1;
  kept.marks[place] = mark;
  kept.size = place + 1;
  if (serial !== undefined) {
    mark.stamp = serial;
    mark.at = place;
    mark.count = 1;
  }
  return 0;
}

/** The domain's place among the model's, or -1. */
function indexIn(kept: ModelDomains, domain: string): number {
  for (let at = 0; at < kept.size; at += 1) if (kept.domains[at] === domain) return at;
  return -1;
}

/** The replicas of `model` in `domain`: 0 for none. */
function countOf(byModel: DomainsByModel, model: string, domain: string): number {
  const kept = byModel.get(model);
  if (kept === undefined) return 0;
  const at = indexIn(kept, domain);
  return at < 0 ? 0 : (kept.counts[at] as number);
}

/**
 * One domain's replicas per model, read as a Map of the models it holds (in the order the fleet
 * first counted each model). A view: it reads the lists by model, which are the counts.
 */
export class DomainCounts implements ReadonlyMap<string, number> {
  constructor(
    private readonly domain: string,
    private readonly byModel: DomainsByModel,
  ) {}

  get size(): number {
    let size = 0;
    for (const _ of this.entries()) size += 1;
    return size;
  }

  get(model: string): number | undefined {
    const count = countOf(this.byModel, model, this.domain);
    return count === 0 ? undefined : count;
  }

  has(model: string): boolean {
    return countOf(this.byModel, model, this.domain) > 0;
  }

  *entries(): MapIterator<[string, number]> {
    for (const [model, kept] of this.byModel.byModel) {
      const at = indexIn(kept, this.domain);
      if (at >= 0) yield [model, kept.counts[at] as number];
    }
  }

  *keys(): MapIterator<string> {
    for (const [model] of this.entries()) yield model;
  }

  *values(): MapIterator<number> {
    for (const [, count] of this.entries()) yield count;
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  forEach(each: (count: number, model: string, map: ReadonlyMap<string, number>) => void): void {
    for (const [model, count] of this.entries()) each(count, model, this);
  }
}
