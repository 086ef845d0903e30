// The serving endpoints of each model, kept up to date as the replica book changes (told, not
// asked): a change files or unfiles one endpoint, and a request reads its model's endpoints by
// name without looking at any other model's, so its routing cost does not grow with the fleet.

const NONE: readonly never[] = Object.freeze([]);

export class ModelEndpointIndex<T extends { id: string }> {
  private readonly byModel = new Map<string, Map<string, T>>();
  private readonly modelOf = new Map<string, string>();
  /** Each model's endpoints as one array, built on the first read after a change. */
  private readonly lists = new Map<string, readonly T[]>();

  /** Files the endpoint under the model, taking it from the model it was under before, if any. */
  put(model: string, endpoint: T): void {
    const before = this.modelOf.get(endpoint.id);
    if (before === model && this.byModel.get(model)?.get(endpoint.id) === endpoint) return;
    if (before !== undefined && before !== model) this.remove(endpoint.id);
    let endpoints = this.byModel.get(model);
    if (!endpoints) this.byModel.set(model, (endpoints = new Map()));
    endpoints.set(endpoint.id, endpoint);
    this.modelOf.set(endpoint.id, model);
    this.lists.delete(model);
  }

  /** Takes the endpoint out of whichever model it is under; nothing when it is under none. */
  remove(id: string): void {
    const model = this.modelOf.get(id);
    if (model === undefined) return;
    this.modelOf.delete(id);
    this.lists.delete(model);
    const endpoints = this.byModel.get(model);
    endpoints?.delete(id);
    if (endpoints?.size === 0) this.byModel.delete(model);
  }

  /** The model's endpoints: the same array, read by name, until the model's set changes. */
  of(model: string): readonly T[] {
    let list = this.lists.get(model);
    if (list) return list;
    // A name with nothing filed is not remembered: any name a client sends would be kept.
    const endpoints = this.byModel.get(model);
    if (!endpoints) return NONE;
    list = Object.freeze([...endpoints.values()]);
    this.lists.set(model, list);
    return list;
  }

  /** Every model's endpoints, for the periodic load scrape. */
  all(): T[] {
    return [...this.byModel.values()].flatMap((endpoints) => [...endpoints.values()]);
  }
}
