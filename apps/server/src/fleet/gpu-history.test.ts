import { describe, expect, it } from "vitest";
import { GpuHistory } from "./gpu-history";

const sample = (uuid: string, utilizationPercent?: number) => ({
  uuid,
  utilizationPercent,
  memoryBytesUsed: 1024n,
  temperatureCelsius: 40,
});

describe("GpuHistory", () => {
  it("keeps only the newest samples per node, oldest first", () => {
    const history = new GpuHistory(3);
    for (let at = 1; at <= 5; at++) history.record("n1", at, [sample("g0", at) as never]);
    history.record("n2", 9, [sample("g0", 99) as never]);
    expect(history.points("n1").map((point) => point.atMs)).toEqual([3, 4, 5]);
    expect(history.points("n1", 4).map((point) => point.atMs)).toEqual([4, 5]);
    expect(history.points("n1")[0]?.cards[0]).toEqual({
      uuid: "g0",
      utilizationPercent: 3,
      memoryBytesUsed: 1024,
      temperatureCelsius: 40,
    });
    expect(history.points("n2")).toHaveLength(1);
    expect(history.points("unknown")).toEqual([]);
  });

  it("reports a card's peak and how many samples it covers; unknown is not zero", () => {
    const history = new GpuHistory(10);
    history.record("n1", 1, [sample("g0", 2), sample("g1")] as never);
    history.record("n1", 2, [sample("g0", 4.5), sample("g1")] as never);
    history.record("n1", 3, [sample("g0", 1), sample("g1")] as never);
    expect(history.peakUtilization("n1", "g0", 0)).toEqual({ percent: 4.5, samples: 3 });
    expect(history.peakUtilization("n1", "g0", 3)).toEqual({ percent: 1, samples: 1 });
    expect(history.peakUtilization("n1", "g1", 0)).toBeNull();
    expect(history.peakUtilization("n1", "nope", 0)).toBeNull();
  });

  it("ignores a heartbeat without cards (a CPU node keeps no ring)", () => {
    const history = new GpuHistory(3);
    history.record("cpu", 1, []);
    expect(history.points("cpu")).toEqual([]);
  });
});
