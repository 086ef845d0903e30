import { describe, expect, it } from "vitest";
import { backoffCeilingMs, createBackoff, DEFAULT_BACKOFF } from "./backoff";
import { seededRandom } from "./random";

describe("backoff", () => {
  it("doubles the ceiling from 500 ms and caps it at 30 s", () => {
    const backoff = createBackoff({ ...DEFAULT_BACKOFF, random: () => 0.999999 });
    const delays = Array.from({ length: 10 }, () => backoff.nextDelayMs());
    expect(delays).toEqual([499, 999, 1999, 3999, 7999, 15999, 29999, 29999, 29999, 29999]);
  });

  it("never overflows after a very long outage", () => {
    expect(backoffCeilingMs(10_000, 500, 30_000)).toBe(30_000);
  });

  it("keeps every jittered delay between zero and the ceiling", () => {
    const backoff = createBackoff({ ...DEFAULT_BACKOFF, random: seededRandom(11) });
    const delays: number[] = [];
    for (let attempt = 0; attempt < 200; attempt++) {
      const delay = backoff.nextDelayMs();
      delays.push(delay);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(backoffCeilingMs(attempt, 500, 30_000));
    }
    // Full jitter spreads the capped delays over the whole range rather than bunching at the cap.
    const capped = delays.slice(10);
    expect(Math.min(...capped)).toBeLessThan(10_000);
    expect(Math.max(...capped)).toBeGreaterThan(20_000);
  });

  it("starts again from the base after a session that worked", () => {
    const backoff = createBackoff({ ...DEFAULT_BACKOFF, random: () => 0.5 });
    for (let i = 0; i < 8; i++) backoff.nextDelayMs();
    expect(backoff.nextDelayMs()).toBe(15_000);
    backoff.reset();
    expect(backoff.attempt).toBe(0);
    expect(backoff.nextDelayMs()).toBe(250);
    expect(backoff.nextDelayMs()).toBe(500);
  });
});
