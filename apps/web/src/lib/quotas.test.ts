import { describe, expect, it } from "vitest";
import { quotaBarGeometry, resourceParts } from "./quotas";

const line = (held: number, guaranteed: number, limit: number | null) => ({
  resource: "gpus:H100-80G",
  held,
  guaranteed,
  limit,
  borrowed: Math.max(0, held - guaranteed),
});

describe("quota bars", () => {
  it("splits what is held into the guaranteed part and the borrowed part, on the limit's scale", () => {
    expect(quotaBarGeometry(line(12, 8, 16))).toEqual({
      withinPercent: 50,
      borrowedPercent: 25,
      guaranteePercent: 50,
      limitPercent: 100,
      isAtLimit: false,
    });
  });

  it("marks a scope holding its whole limit, and a bar with nothing guaranteed or limited", () => {
    expect(quotaBarGeometry(line(16, 16, 16))).toMatchObject({
      withinPercent: 100,
      borrowedPercent: 0,
      isAtLimit: true,
    });
    expect(quotaBarGeometry(line(3, 0, null))).toEqual({
      withinPercent: 0,
      borrowedPercent: 100,
      guaranteePercent: null,
      limitPercent: null,
      isAtLimit: false,
    });
    // A limit of 0 on what the scope does not hold is a rule, not a scope at its limit.
    expect(quotaBarGeometry(line(0, 0, 0)).isAtLimit).toBe(false);
  });

  it("reads a card class out of its resource name", () => {
    expect(resourceParts("gpus:H100-80G")).toEqual({ kind: "gpus", gpuClass: "H100-80G" });
    expect(resourceParts("memory")).toEqual({ kind: "memory", gpuClass: "" });
  });
});
