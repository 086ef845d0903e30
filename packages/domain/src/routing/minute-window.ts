// A sliding one-minute count in one-second buckets, for requests and tokens per minute. Pure: the
// caller passes the time, so tests use a fixed clock.
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

  add(nowMs: number, amount: number): void {
    const second = Math.floor(nowMs / BUCKET_MS);
    const bucket = this.bucketFor(second);
    if (bucket.second !== second) {
      bucket.second = second;
      bucket.count = 0;
    }
    bucket.count += amount;
  }

  total(nowMs: number): number {
    const second = Math.floor(nowMs / BUCKET_MS);
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

  /** The bucket a second falls in; the times are milliseconds since the epoch, never before it. */
  private bucketFor(second: number): Bucket {
    return must(this.buckets[second % BUCKETS], `the bucket of second ${second}`);
  }
}
