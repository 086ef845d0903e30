// A sliding one-minute count in one-second buckets, for requests and tokens per minute. Pure: the
// caller passes the time, so tests use a fixed clock. The gateway reads two windows on every
// request, so the window keeps its total as it goes: a read costs one step per second passed since
// the last (at most sixty), not a walk over all sixty buckets. A clock that steps back (the caller's,
// not ours) is read by that walk, as before.
import { must } from "../must";

const BUCKETS = 60;
const BUCKET_MS = 1_000;

interface Bucket {
  /** The whole second (since the epoch) this bucket counts; -1 before its first use. */
  second: number;
  count: number;
}

export class MinuteWindow {
  private readonly buckets: Bucket[] = Array.from({ length: BUCKETS }, () => ({
    second: -1,
    count: 0,
  }));
  /** The latest second added or read at: every bucket's second is at or before it. */
  private headSecond = -1;
  /** The counts of the buckets under sixty seconds older than headSecond. */
  private headTotal = 0;

  add(nowMs: number, amount: number): void {
    const second = Math.floor(nowMs / BUCKET_MS);
    this.advanceTo(second);
    const bucket = this.bucketFor(second);
    if (bucket.second !== second) {
      if (this.isCounted(bucket.second)) this.headTotal -= bucket.count;
      bucket.second = second;
      bucket.count = 0;
    }
    bucket.count += amount;
    if (this.isCounted(second)) this.headTotal += amount;
  }

  total(nowMs: number): number {
    const second = Math.floor(nowMs / BUCKET_MS);
    if (second >= this.headSecond) {
      this.advanceTo(second);
      return this.headTotal;
    }
    let sum = 0;
    for (const bucket of this.buckets) {
      if (second - bucket.second < BUCKETS) sum += bucket.count;
    }
    return sum;
  }

  /** Whole seconds until the total falls below `limit` (at least 1 when it is at or above it now). */
  retryAfterSeconds(nowMs: number, limit: number): number {
    const second = Math.floor(nowMs / BUCKET_MS);
    let excess = this.total(nowMs) - limit + 1;
    if (excess <= 0) return 0;
    for (let age = BUCKETS - 1; age >= 0; age--) {
      const bucketSecond = second - age;
      if (bucketSecond < 0) continue;
      const bucket = this.bucketFor(bucketSecond);
      if (bucket.second !== bucketSecond) continue;
      excess -= bucket.count;
      if (excess <= 0) return BUCKETS - age;
    }
    return BUCKETS;
  }

  private isCounted(bucketSecond: number): boolean {
    return this.headSecond - bucketSecond < BUCKETS;
  }

  /** Moves the head on to `second`, taking out of the total the buckets that fall out of it. */
  private advanceTo(second: number): void {
    if (second <= this.headSecond) return;
    if (second - this.headSecond >= BUCKETS) this.headTotal = 0;
    else
      for (let leaving = this.headSecond - BUCKETS + 1; leaving <= second - BUCKETS; leaving++) {
        if (leaving < 0) continue;
        const bucket = this.bucketFor(leaving);
        if (bucket.second === leaving) this.headTotal -= bucket.count;
      }
    this.headSecond = second;
  }

  /** The bucket a second falls in; the times are milliseconds since the epoch, never before it. */
  private bucketFor(second: number): Bucket {
    return must(this.buckets[second % BUCKETS], `the bucket of second ${second}`);
  }
}
