// A model that cannot be placed is re-planned every few seconds; logging each refusal would bury
// the log. A warning is written when its reason changes, and again every ten minutes.
export const PLACEMENT_WARNING_REPEAT_MS = 10 * 60_000;

export class PlacementWarnings {
  private readonly last = new Map<string, { reason: string; atMs: number }>();

  /** True when this warning should be logged now. */
  shouldLog(model: string, reason: string, nowMs: number): boolean {
    const previous = this.last.get(model);
    if (
      previous &&
      previous.reason === reason &&
      nowMs - previous.atMs < PLACEMENT_WARNING_REPEAT_MS
    )
      return false;
    this.last.set(model, { reason, atMs: nowMs });
    return true;
  }

  /** The model was placed (or removed): its next refusal is news again. */
  clear(model: string): void {
    this.last.delete(model);
  }
}
