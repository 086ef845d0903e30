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
});
