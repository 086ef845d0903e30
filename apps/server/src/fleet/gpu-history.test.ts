import { describe, expect, it } from "vitest";
import { GPU_HISTORY_UUIDS_MAX, GpuHistory } from "./gpu-history";

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

  it("keeps values a card did not report as null, and values of 0 as 0", () => {
    const history = new GpuHistory(3);
    history.record("n1", 1, [
      { uuid: "g0", utilizationPercent: 0, memoryBytesUsed: 0n, temperatureCelsius: 0 },
      { uuid: "g1" },
    ] as never);
    expect(history.points("n1")[0]?.cards).toEqual([
      { uuid: "g0", utilizationPercent: 0, memoryBytesUsed: 0, temperatureCelsius: 0 },
      { uuid: "g1", utilizationPercent: null, memoryBytesUsed: null, temperatureCelsius: null },
    ]);
  });

  it("keeps each beat's cards when a later beat carries more or fewer of them", () => {
    const history = new GpuHistory(4);
    history.record("n1", 1, [sample("a", 1)] as never);
    history.record("n1", 2, [sample("a", 2), sample("b", 3), sample("c", 4)] as never);
    history.record("n1", 3, [sample("b", 5)] as never);
    const cards = history.points("n1").map((point) => point.cards.map((c) => c.uuid));
    expect(cards).toEqual([["a"], ["a", "b", "c"], ["b"]]);
    expect(history.points("n1")[1]?.cards[2]?.utilizationPercent).toBe(4);
    expect(history.peakUtilization("n1", "b", 0)).toEqual({ percent: 5, samples: 2 });
  });

  it("keeps a bounded uuid table for a node whose card uuids change at every beat", () => {
    const history = new GpuHistory(5);
    for (let at = 1; at <= 5_000; at++)
      history.record("n1", at, [sample(`g-${at}-0`, at), sample(`g-${at}-1`, 1)] as never);
    expect(history.uuidCount("n1")).toBeLessThanOrEqual(GPU_HISTORY_UUIDS_MAX);
    // The newest beats still read back with the uuids they came with.
    const points = history.points("n1");
    expect(points.map((point) => point.atMs)).toEqual([4996, 4997, 4998, 4999, 5000]);
    expect(points[4]?.cards.map((card) => card.uuid)).toEqual(["g-5000-0", "g-5000-1"]);
    expect(points[0]?.cards[0]).toMatchObject({ uuid: "g-4996-0", utilizationPercent: 4996 });
    expect(history.peakUtilization("n1", "g-4998-0", 0)).toEqual({ percent: 4998, samples: 1 });
  });
});
