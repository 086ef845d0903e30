// Replicas per model in one rack or PDU, kept from pass to pass. A Map emptied with `clear` gives
// up its table, and the next pass's first replicas grow it again (4, 8, 16, 32 entries and more,
// each step a call into the runtime), for every one of the fleet's racks and PDUs: at 10,000 nodes
// that growth was most of counting a replica into its domains. Here the table keeps the models it
// has seen, at zero once emptied, and a list of the models counted since the last emptying gives
// the entries in the order they were first counted, as a new Map's would be. Read as a Map: a
// model at zero is not there.

/** Models kept at zero beyond twice the last pass's, past this, are forgotten at the next emptying. */
const STALE_MODELS_MAX = 16;

export class DomainCounts implements ReadonlyMap<string, number> {
  private readonly counts = new Map<string, number>();
  /** The models counted since the last emptying, in the order first counted; written over. */
  private readonly counted: string[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }

  get(model: string): number | undefined {
    const count = this.counts.get(model);
    return count === 0 ? undefined : count;
  }

  /** The model's count, 0 for none: what the spread score reads, for every node a search weighs. */
  countOf(model: string): number {
    return this.counts.get(model) ?? 0;
  }

  has(model: string): boolean {
    return (this.counts.get(model) ?? 0) > 0;
  }

  /** Adds one replica of the model; returns how many the domain held before. */
  add(model: string): number {
    const count = this.counts.get(model) ?? 0;
    this.counts.set(model, count + 1);
    if (count === 0) {
      this.counted[this.live] = model;
      this.live += 1;
    }
    return count;
  }

  /**
   * Empties the counts, keeping the table: a pass counts mostly the models the last one did. A
   * table holding many more models than were counted (the catalog changed) is dropped instead, so
   * models no longer placed do not pile up.
   */
  clear(): void {
    if (this.counts.size > 2 * this.live + STALE_MODELS_MAX) this.counts.clear();
    else for (let at = 0; at < this.live; at += 1) this.counts.set(this.counted[at] as string, 0);
    this.live = 0;
  }

  *entries(): MapIterator<[string, number]> {
    for (let at = 0; at < this.live; at += 1) {
      const model = this.counted[at] as string;
      yield [model, this.counts.get(model) as number];
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
