import { describe, expect, it } from "vitest";
import { seededRandom } from "./seeded-random";

describe("seededRandom", () => {
  it("repeats a sequence for a seed and differs between seeds", () => {
    const a = Array.from({ length: 5 }, seededRandom(42));
    expect(Array.from({ length: 5 }, seededRandom(42))).toEqual(a);
    expect(Array.from({ length: 5 }, seededRandom(43))).not.toEqual(a);
  });

  it("stays in [0, 1) and spreads over it", () => {
    const next = seededRandom(7);
    const values = Array.from({ length: 10_000 }, next);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});
