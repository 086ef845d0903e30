// nodes.summary and nodes.cards: the light forms the console polls, who may read them, and that
// they carry the figures the pages show (and not the card records they leave out).
import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { caught } from "../../test/caught";
import { fakeContext } from "../../test/fake-context";
import type { GpuView, NodeView } from "./schemas";
import { fleetCardsOf, nodeSummaryOf, type FleetCardsView, type NodeSummary } from "./summary";

const GIB = 2 ** 30;

function card(index: number, overrides: Partial<GpuView> = {}): GpuView {
  return {
    ...{ index, uuid: `GPU-${index}`, name: "NVIDIA H100 80GB HBM3", memoryBytesTotal: 80 * GIB },
    ...{ memoryBytesUsed: 20 * GIB, computeCapability: "9.0", pcieGenMax: 5, pcieGenCardMax: 5 },
    ...{ pcieGenCurrent: 5, pcieWidthMax: 16, pcieWidthCurrent: 16, migEnabled: false },
    pcieLink: { carriedGBps: 63, possibleGBps: 63, isBelowCapability: false, reason: null },
    ...{ utilizationPercent: 40, temperatureCelsius: 55, powerWatts: 300 },
    ...overrides,
  };
}

function node(name: string, gpus: GpuView[], overrides: Partial<NodeView> = {}): NodeView {
  return {
    ...{ id: `id-${name}`, name, state: "ready", simulated: true, simulationProfile: "dgx" },
    ...{ agentVersion: "1.0.0", labels: { "llmgw.io/rack": "r1" }, storedLabels: {}, cordon: null },
    ...{ engines: ["vllm"], engineInstalls: [], features: [], os: "Linux", arch: "x86_64" },
    engineBuild: { choice: "auto", setBy: null, setAt: null, applied: null },
    ...{ firstSeenAt: "2030-01-01T00:00:00.000Z", lastSeenAt: "2030-01-01T00:01:00.000Z" },
    cpu: { model: "EPYC", cores: 64, utilizationPercent: 3 },
    memory: { bytesTotal: 512 * GIB, bytesUsed: 100 * GIB },
    disk: { bytesTotal: 1000 * GIB, bytesFree: 50 * GIB },
    network: { receiveBytesPerSecond: null, transmitBytesPerSecond: null },
    ...{ heartbeatAgeSeconds: 1, driverVersion: "550", gpus },
    ...overrides,
  };
}

const NARROW = { carriedGBps: 31.5, possibleGBps: 63, isBelowCapability: true, reason: "x8" };

describe("nodeSummaryOf", () => {
  it("groups cards by model, sums their memory and counts degraded links", () => {
    const summary = nodeSummaryOf(
      node("gpu-1", [card(0), card(1, { name: "NVIDIA L40S", pcieLink: NARROW }), card(2)], {
        cordon: "draining",
      }),
    );
    expect(summary.gpuGroups).toEqual([
      { name: "NVIDIA H100 80GB HBM3", count: 2 },
      { name: "NVIDIA L40S", count: 1 },
    ]);
    expect(summary.gpuMemoryBytesTotal).toBe(240 * GIB);
    expect(summary.pcieDegradedCount).toBe(1);
    expect(summary.cordon).toBe("draining");
    expect(summary.disk).toEqual({ bytesTotal: 1000 * GIB, bytesFree: 50 * GIB });
    expect(summary).not.toHaveProperty("gpus");
  });
});

describe("fleetCardsOf", () => {
  it("sorts nodes by name and cards by index, leaves out nodes without cards, names once", () => {
    const view = fleetCardsOf([
      node("b", [card(1, { utilizationPercent: null }), card(0, { memoryBytesUsed: null })]),
      node("cpu-only", []),
      node("a", [card(0, { name: "NVIDIA L40S", temperatureCelsius: 70 })]),
    ]);
    expect(view.nodes.map((n) => [n.name, n.cardCount])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(view.cardNames).toEqual(["NVIDIA L40S", "NVIDIA H100 80GB HBM3"]);
    expect(view.cards).toEqual({
      index: [0, 0, 1],
      nameOfCard: [0, 1, 1],
      memoryMiBTotal: [81_920, 81_920, 81_920],
      memoryMiBUsed: [20_480, null, 20_480],
      utilizationPercent: [40, 40, null],
      temperatureCelsius: [70, 55, 55],
    });
  });
});

const SUMMARY: NodeSummary = {
  ...{ id: "id-gpu-1", name: "gpu-1", state: "ready", simulated: true, cordon: null },
  ...{ agentVersion: "1.0.0", os: "Linux", arch: "x86_64", labels: { "llmgw.io/rack": "r1" } },
  ...{ lastSeenAt: "2030-01-01T00:01:00.000Z", cpuCores: 64, memoryBytesTotal: 512 * GIB },
  disk: { bytesTotal: 1000 * GIB, bytesFree: null },
  gpuGroups: [{ name: "NVIDIA H100 80GB HBM3", count: 8 }],
  ...{ gpuMemoryBytesTotal: 640 * GIB, pcieDegradedCount: 0 },
};

const CARDS: FleetCardsView = {
  nodes: [{ id: "id-gpu-1", name: "gpu-1", simulated: true, cardCount: 1 }],
  cardNames: ["NVIDIA H100 80GB HBM3"],
  cards: {
    ...{ index: [0], nameOfCard: [0], memoryMiBTotal: [81_920], memoryMiBUsed: [20_480] },
    ...{ utilizationPercent: [40], temperatureCelsius: [null] },
  },
};

describe("nodes.summary and nodes.cards", () => {
  it("answer a signed-in user from the service's light lists, and refuse anyone signed out", async () => {
    const ctx = fakeContext("viewer");
    ctx.services.nodes.summaries.mockResolvedValue([SUMMARY]);
    ctx.services.nodes.cards.mockResolvedValue(CARDS);
    const caller = appRouter.createCaller(ctx);
    expect(await caller.nodes.summary()).toEqual([SUMMARY]);
    expect(await caller.nodes.cards()).toEqual(CARDS);
    expect(ctx.services.nodes.list).not.toHaveBeenCalled();
    const signedOut = appRouter.createCaller(fakeContext(null));
    expect((await caught(signedOut.nodes.summary())).code).toBe("UNAUTHORIZED");
    expect((await caught(signedOut.nodes.cards())).code).toBe("UNAUTHORIZED");
  });

  it("refuse an answer that does not match the schema rather than pass it on", async () => {
    const ctx = fakeContext("viewer");
    ctx.services.nodes.cards.mockResolvedValue({ ...CARDS, cardNames: [7] } as never);
    expect((await caught(appRouter.createCaller(ctx).nodes.cards())).code).toBe(
      "INTERNAL_SERVER_ERROR",
    );
  });

  it("is a small fraction of the full list at P9's size", () => {
    const fleet = Array.from({ length: 200 }, (_, n) =>
      node(
        `gpu-${n}`,
        Array.from({ length: 8 }, (_, i) => card(i, { uuid: `GPU-${n}-${i}` })),
      ),
    );
    const full = JSON.stringify(fleet).length;
    expect(JSON.stringify(fleet.map(nodeSummaryOf)).length).toBeLessThan(full / 5);
    expect(JSON.stringify(fleetCardsOf(fleet)).length).toBeLessThan(full / 10);
  });
});
