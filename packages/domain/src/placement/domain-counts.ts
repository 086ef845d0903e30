// Replicas per model in each rack and PDU, kept by model: for each model, the domains holding one
// of its replicas (in the order they got their first) and how many each holds. A pass places a
// model's replicas one after another, so counting one in its rack and PDU reads the model's own
// short lists, which the search for it has just read, and the domains' marks (see NearModel).
// Kept per domain instead (a map of models for each of the fleet's racks and PDUs), every count
// read a table no recent work had touched: at 10,000 nodes that one lookup was the largest line
// of a full pass. Readers that ask by domain (explain-placement, the tests) get DomainCounts, a
// view of the same lists.
import type { DomainMark } from "./fleet-types";

/** One model's racks and PDUs: parallel lists, a domain's place fixed once it is added. */
interface ModelDomains {
  domains: string[];
  counts: number[];
  /** Each domain's mark, so marking the model's domains looks up no names. */
  marks: DomainMark[];
}

/** Model → its domains; emptied when the fleet is. */
export type DomainsByModel = Map<string, ModelDomains>;

/**
 * Adds one replica of `model` in `domain`; returns how many the domain held before. `mark` is the
 * domain's: while `serial` marks the model's domains, a marked domain holds the model and its
 * mark knows its place in the model's lists, so no list is searched. A model's first domain
 * enters `domainsOf` too, as the very list the counts keep (model → its domains).
 */
export function countInDomain(
  byModel: DomainsByModel,
  domainsOf: Map<string, string[]>,
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
  const at = serial === undefined && kept !== undefined ? kept.domains.indexOf(domain) : -1;
  if (kept !== undefined && at >= 0) return (kept.counts[at] as number)++;
  if (kept === undefined) {
    kept = { domains: [], counts: [], marks: [] };
    byModel.set(model, kept);
    domainsOf.set(model, kept.domains);
  }
  kept.domains.push(domain);
  kept.counts.push(1);
  kept.marks.push(mark);
  if (serial !== undefined) {
    mark.stamp = serial;
    mark.at = kept.domains.length - 1;
    mark.count = 1;
  }
  return 0;
}

/** The replicas of `model` in `domain`: 0 for none. */
function countOf(byModel: DomainsByModel, model: string, domain: string): number {
  const kept = byModel.get(model);
  if (kept === undefined) return 0;
  const at = kept.domains.indexOf(domain);
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
    for (const [model, kept] of this.byModel) {
      const at = kept.domains.indexOf(this.domain);
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
