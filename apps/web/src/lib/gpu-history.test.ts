import { describe, expect, it } from "vitest";
import { cardColour, chartRows } from "./gpu-history";

const history = {
  nodeId: "n1",
  windowMs: 300_000,
  samples: [
    {
      atMs: 1000,
      gpus: [
        { index: 0, utilizationPercent: 10, memoryBytesUsed: 40, temperatureCelsius: 35 },
        { index: 1, utilizationPercent: null, memoryBytesUsed: null, temperatureCelsius: null },
      ],
    },
    {
      atMs: 3000,
      gpus: [{ index: 0, utilizationPercent: 90, memoryBytesUsed: 80, temperatureCelsius: 70 }],
    },
  ],
};

describe("chartRows", () => {
  const totals = new Map([
    [0, 80],
    [1, 160],
  ]);

  it("makes one row per heartbeat and one column per card", () => {
    expect(chartRows(history, "utilization", totals)).toEqual([
      { atMs: 1000, card0: 10, card1: null },
      { atMs: 3000, card0: 90 },
    ]);
    expect(chartRows(history, "temperature", totals)[1]).toEqual({ atMs: 3000, card0: 70 });
  });

  it("charts memory as a share of each card's own memory", () => {
    expect(chartRows(history, "memory", totals)).toEqual([
      { atMs: 1000, card0: 50, card1: null },
      { atMs: 3000, card0: 100 },
    ]);
    expect(chartRows(history, "memory", new Map())[0]?.card0).toBeNull();
  });

  it("gives cards distinct colours", () => {
    expect(new Set([0, 1, 2, 3, 4, 5, 6, 7].map(cardColour)).size).toBe(8);
  });
});
