import { describe, expect, it } from "vitest";
import { MinuteWindow } from "./minute-window";

describe("MinuteWindow", () => {
  it("counts the last sixty seconds and forgets older ones", () => {
    const window = new MinuteWindow();
    window.add(1_000, 2);
    window.add(30_500, 3);
    expect(window.total(30_500)).toBe(5);
    expect(window.total(60_999)).toBe(5);
    expect(window.total(61_000)).toBe(3);
    expect(window.total(90_500)).toBe(0);
  });

  it("says how long until the count falls under the limit", () => {
    const window = new MinuteWindow();
    window.add(0, 1);
    window.add(10_000, 1);
    expect(window.retryAfterSeconds(10_000, 3)).toBe(0);
    // At limit 2 the oldest request (second 0) must leave: it does at 60 s, 50 s from now.
    expect(window.retryAfterSeconds(10_000, 2)).toBe(50);
    expect(window.retryAfterSeconds(10_000, 1)).toBe(60);
  });

  it("keeps the same total as summing its buckets, through steps forward, long gaps and steps back", () => {
    // The window before it kept a running total: every read walked all sixty buckets.
    const buckets = new Map<number, { second: number; count: number }>();
    const walked = (nowMs: number) => {
      const second = Math.floor(nowMs / 1_000);
      let sum = 0;
      for (const bucket of buckets.values()) if (second - bucket.second < 60) sum += bucket.count;
      return sum;
    };
    const addWalked = (nowMs: number, amount: number) => {
      const second = Math.floor(nowMs / 1_000);
      const bucket = buckets.get(second % 60);
      if (bucket?.second === second) bucket.count += amount;
      else buckets.set(second % 60, { second, count: amount });
    };
    let seed = 19;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const window = new MinuteWindow();
    let nowMs = 5_000;
    for (let step = 0; step < 5_000; step++) {
      const roll = random();
      if (roll < 0.6) nowMs += Math.floor(random() * 700);
      else if (roll < 0.63) nowMs += Math.floor(random() * 90_000);
      else if (roll < 0.65) nowMs = Math.max(0, nowMs - Math.floor(random() * 70_000));
      if (random() < 0.7) {
        const amount = 1 + Math.floor(random() * 50);
        window.add(nowMs, amount);
        addWalked(nowMs, amount);
      }
      const [kept, summed] = [window.total(nowMs), walked(nowMs)];
      if (kept !== summed) expect({ step, nowMs, kept }).toEqual({ step, nowMs, kept: summed });
    }
  });
});
