import { describe, expect, it } from "vitest";
import { FAULT_KINDS, faultSchedule, pickOne } from "./schedule";

describe("faultSchedule", () => {
  const thirty = { seed: 7, durationMs: 30 * 60_000, everyMs: 120_000, settleMs: 60_000 };

  it("puts a fault every interval and none in the settling time at the end", () => {
    const faults = faultSchedule(thirty);
    expect(faults.map((f) => f.atMs)).toEqual(
      Array.from({ length: 14 }, (_, i) => (i + 1) * 120_000),
    );
    expect(Math.max(...faults.map((f) => f.atMs))).toBeLessThanOrEqual(29 * 60_000);
  });

  it("gives every kind once before any kind again", () => {
    const faults = faultSchedule(thirty);
    const first = faults.slice(0, FAULT_KINDS.length).map((f) => f.kind);
    expect(new Set(first).size).toBe(FAULT_KINDS.length);
    const second = faults.slice(FAULT_KINDS.length, 2 * FAULT_KINDS.length).map((f) => f.kind);
    expect(new Set(second).size).toBe(FAULT_KINDS.length);
  });

  it("replays the same run for the same seed and another for another seed", () => {
    expect(faultSchedule(thirty)).toEqual(faultSchedule(thirty));
    const other = faultSchedule({ ...thirty, seed: 8 });
    expect(other.map((f) => f.kind)).not.toEqual(faultSchedule(thirty).map((f) => f.kind));
  });

  it("fits a three-minute smoke with a fault every 25 s: each kind once", () => {
    const smoke = faultSchedule({
      seed: 1,
      durationMs: 180_000,
      everyMs: 25_000,
      settleMs: 30_000,
    });
    expect(smoke).toHaveLength(6);
    expect(new Set(smoke.map((f) => f.kind)).size).toBe(6);
  });
});

describe("pickOne", () => {
  it("maps [0, 1) onto the items and answers undefined for none", () => {
    expect(pickOne(["a", "b", "c"], 0)).toBe("a");
    expect(pickOne(["a", "b", "c"], 0.5)).toBe("b");
    expect(pickOne(["a", "b", "c"], 0.999)).toBe("c");
    expect(pickOne([], 0.5)).toBeUndefined();
  });
});
