// Replicas per model on one node. A node holds a handful of models, so two short arrays scanned
// in order do what a Map did without hashing, and emptying them for the next pass only resets the
// count: Map#clear gave up each node's table, and the first replicas of the next pass grew it
// again (4, 8, 16 entries), for every node of the fleet, every pass.

export class ModelCounts {
  private readonly models: string[] = [];
  private readonly counts: number[] = [];
  /** How many models are counted: the arrays are written over, never cut. */
  size = 0;

  private slotOf(model: string): number {
    for (let at = 0; at < this.size; at += 1) if (this.models[at] === model) return at;
    return -1;
  }

  get(model: string): number | undefined {
    const at = this.slotOf(model);
    return at < 0 ? undefined : this.counts[at];
  }

  has(model: string): boolean {
    return this.slotOf(model) >= 0;
  }

  /** Adds one replica of the model; returns how many the node held before. */
  add(model: string): number {
    const at = this.slotOf(model);
    if (at >= 0) return (this.counts[at] as number)++;
    this.models[this.size] = model;
    this.counts[this.size] = 1;
    this.size += 1;
    return 0;
  }

  clear(): void {
    this.size = 0;
  }

  /** [model, count] in the order the models were first counted, as a Map's entries are. */
  entries(): [string, number][] {
    const entries: [string, number][] = [];
    for (let at = 0; at < this.size; at += 1)
      entries.push([this.models[at] as string, this.counts[at] as number]);
    return entries;
  }
}
