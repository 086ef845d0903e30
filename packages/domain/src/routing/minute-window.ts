// A sliding one-minute count in one-second buckets, for requests and tokens per minute. Pure: the
// caller passes the time, so tests use a fixed clock.

const BUCKETS = 60;
const BUCKET_MS = 1_000;

export class MinuteWindow {
  private readonly counts = new Array<number>(BUCKETS).fill(0);
  private readonly seconds = new Array<number>(BUCKETS).fill(-1);

  add(nowMs: number, amount: number): void {
    const second = Math.floor(nowMs / BUCKET_MS);
    const slot = second % BUCKETS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot]! += amount;
  }

  total(nowMs: number): number {
    const second = Math.floor(nowMs / BUCKET_MS);
    let sum = 0;
    for (let slot = 0; slot < BUCKETS; slot++) {
      if (second - this.seconds[slot]! < BUCKETS) sum += this.counts[slot]!;
    }
    return sum;
  }

  /** Whole seconds until the total falls below `limit` (at least 1 when it is at or above it now). */
  retryAfterSeconds(nowMs: number, limit: number): number {
    const second = Math.floor(nowMs / BUCKET_MS);
    let excess = this.total(nowMs) - limit + 1;
    if (excess <= 0) return 0;
    for (let age = BUCKETS - 1; age >= 0; age--) {
      const slot = (second - age) % BUCKETS;
      if (slot < 0 || this.seconds[slot] !== second - age) continue;
      excess -= this.counts[slot]!;
      if (excess <= 0) return BUCKETS - age;
    }
    return BUCKETS;
  }
}
