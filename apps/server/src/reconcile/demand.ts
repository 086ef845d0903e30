// When a request last asked for each model. The gateway records demand through the narrow
// `DemandSink`; only the reconciler reads it back (an on-demand model keeps one replica while its
// demand is recent) and forgets a removed model's, so nothing else can rewrite the record.

export interface DemandSink {
  /** A request asked for the model at this time. */
  record(model: string, atMs: number): void;
}

export class DemandBook implements DemandSink {
  private readonly lastAtMs = new Map<string, number>();

  record(model: string, atMs: number): void {
    this.lastAtMs.set(model, atMs);
  }

  /** When the model was last asked for; null when never (or not since it was forgotten). */
  lastAt(model: string): number | null {
    return this.lastAtMs.get(model) ?? null;
  }

  /** Every model asked for, with when it last was. */
  entries(): [string, number][] {
    return [...this.lastAtMs];
  }

  /** A removed model's requests are over: added again, it starts with no demand. */
  forget(model: string): void {
    this.lastAtMs.delete(model);
  }
}
