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

  it("reads back every value exactly, whether it fits the narrow columns or not", () => {
    const history = new GpuHistory(4);
    const mib = 2n ** 20n;
    const beats = [
      // Tenths and whole MiB: the narrow columns.
      {
        uuid: "g0",
        utilizationPercent: 37.4,
        memoryBytesUsed: 81_920n * mib,
        temperatureCelsius: 61,
      },
      // None of these fits them: finer than tenths, beyond two bytes, not whole MiB, -0.
      {
        uuid: "g0",
        utilizationPercent: 33.333333333333336,
        memoryBytesUsed: 85_899_345_921n,
        temperatureCelsius: 4_000.5,
      },
      { uuid: "g0", utilizationPercent: -0, memoryBytesUsed: 2n ** 52n, temperatureCelsius: -12.3 },
      { uuid: "g0", utilizationPercent: 0.1, memoryBytesUsed: 0n, temperatureCelsius: undefined },
    ];
    beats.forEach((beat, at) => history.record("n1", at + 1, [beat] as never));
    const cards = history.points("n1").map((point) => point.cards[0]);
    expect(cards).toEqual(
      beats.map((beat) => ({
        uuid: "g0",
        utilizationPercent: beat.utilizationPercent ?? null,
        memoryBytesUsed: Number(beat.memoryBytesUsed),
        temperatureCelsius: beat.temperatureCelsius ?? null,
      })),
    );
    expect(Object.is(cards[2]?.utilizationPercent, -0)).toBe(true);
    expect(history.peakUtilization("n1", "g0", 0)).toEqual({ percent: 37.4, samples: 4 });
  });

  it("keeps a node of 8 cards reporting tenths and whole MiB in about 12 KiB", () => {
    const history = new GpuHistory();
    const cards = (beat: number) =>
      Array.from({ length: 8 }, (_, card) => ({
        uuid: `GPU-${card}`,
        utilizationPercent: ((beat * 7 + card) % 1001) / 10,
        memoryBytesUsed: BigInt(1_000 + beat + card) * 2n ** 20n,
        temperatureCelsius: 30 + ((beat + card) % 500) / 10,
      }));
    for (let beat = 0; beat < 300; beat += 1) history.record("n1", beat, cards(beat) as never);
    // 150 slots of 8 cards: 2 bytes each for utilisation, temperature and the card index, 4 for
    // memory, and 10 bytes a slot for its time and card count (doubles would take 32,700).
    expect(history.byteLength("n1")).toBe(150 * 8 * (2 + 2 + 2 + 4) + 150 * 10);
    const newest = history.points("n1").at(-1)?.cards[3];
    expect(newest).toEqual({
      uuid: "GPU-3",
      utilizationPercent: ((299 * 7 + 3) % 1001) / 10,
      memoryBytesUsed: (1_000 + 299 + 3) * 2 ** 20,
      temperatureCelsius: 30 + ((299 + 3) % 500) / 10,
    });
  });

  it("keeps values exact when a ring widens for a beat with more cards", () => {
    const history = new GpuHistory(3);
    history.record("n1", 1, [sample("a", 12.5)] as never);
    history.record("n1", 2, [sample("a", 1 / 3), sample("b", 2)] as never);
    history.record("n1", 3, [sample("a", 7), sample("b", 8), sample("c", 9.9)] as never);
    const values = history
      .points("n1")
      .map((point) => point.cards.map((card) => card.utilizationPercent));
    expect(values).toEqual([[12.5], [1 / 3, 2], [7, 8, 9.9]]);
  });
});
