import { describe, expect, it } from "vitest";
import { rssSlope } from "./rss-slope.ts";

describe("rssSlope", () => {
  it("is the least-squares slope in MiB a minute, flat for a flat series", () => {
    expect(rssSlope([0, 1, 2, 3].map((atMin) => ({ atMin, mib: 400 })))).toBe(0);
    expect(rssSlope([0, 1, 2, 3].map((atMin) => ({ atMin, mib: 400 + 2 * atMin })))).toBeCloseTo(2);
    // Noise around a flat line stays near zero.
    const noisy = [401, 399, 402, 398, 400].map((mib, atMin) => ({ atMin, mib }));
    expect(Math.abs(rssSlope(noisy))).toBeLessThan(0.5);
  });
});
