// The light lists built from the stored rows and the registry must say what the full list's light
// forms say (@llmgw/api's nodeSummaryOf and fleetCardsOf over nodes.list), for every kind of node:
// connected with readings, disconnected (readings unknown), known only to the store, without cards.
import { create } from "@bufbuild/protobuf";
import type { GpuRow, NodeRow } from "@llmgw/db";
import { fleetCardsOf, nodeSummaryOf } from "@llmgw/api";
import { DEFAULT_LIVENESS } from "@llmgw/domain";
import { GpuSampleSchema, HeartbeatSchema, RegisterSchema } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { facilityNodes, fleetCards, nodeSummaries } from "./node-lists";
import { createNodesService } from "./nodes-service";
import { FleetRegistry } from "./registry";
import type { NodeRowSet } from "./stored-node-rows";

const GIB = 2 ** 30;
const NOW_MS = Date.parse("2030-06-01T00:00:00Z");

function nodeRow(name: string): NodeRow {
  return {
    ...{ id: `id-${name}`, name, agentVersion: "1.2.0", labels: { zone: "a" }, engines: ["vllm"] },
    ...{ features: [], isSimulated: name.startsWith("sim"), simulationProfile: null },
    host: { cpuModel: "EPYC", cpuCores: 64, os: "Linux", arch: "x86_64", driverVersion: "550" },
    ...{ memoryBytesTotal: 512 * GIB, diskBytesTotal: 2000 * GIB },
    ...{ firstSeenAt: new Date(NOW_MS - 60_000), lastSeenAt: new Date(NOW_MS - 30_000) },
  };
}

function cardRow(node: string, index: number, overrides: Partial<GpuRow> = {}): GpuRow {
  return {
    ...{ uuid: `GPU-${node}-${index}`, nodeId: `id-${node}`, index, name: "NVIDIA H100 80GB HBM3" },
    ...{ memoryBytesTotal: 80 * GIB, computeCapability: "9.0", pcieGenMax: 5, pcieGenCardMax: 5 },
    ...{ pcieGenCurrent: 5, pcieWidthMax: 16, pcieWidthCurrent: 16, pciBusId: null },
    ...{ isMigEnabled: false, powerLimitWatts: 700, updatedAt: new Date(NOW_MS) },
    ...overrides,
  };
}

function connect(registry: FleetRegistry, name: string, cards: number[], atMs = NOW_MS) {
  const nodeId = `id-${name}`;
  registry.connect(create(RegisterSchema, { nodeId, nodeName: name }), 1, atMs - 1000);
  const gpus = cards.map((index) =>
    create(GpuSampleSchema, {
      uuid: `GPU-${name}-${index}`,
      utilizationPercent: 10 * (index + 1),
      memoryBytesUsed: BigInt((index + 1) * GIB),
      temperatureCelsius: 40 + index,
    }),
  );
  registry.heartbeat(
    nodeId,
    1,
    create(HeartbeatSchema, { gpus, diskBytesFree: 77n * BigInt(GIB) }),
    atMs,
  );
}

/** Nodes of every kind, out of name order, one with a degraded card and two models of card. */
function fleet() {
  const registry = new FleetRegistry();
  const rows: NodeRowSet = {
    nodeRows: ["sim-b", "gpu-a", "cpu-only", "gone", "stored-only"].map(nodeRow),
    // By index, as the store reads them.
    gpuRows: [
      cardRow("sim-b", 0, { name: "NVIDIA L40S", pcieWidthCurrent: 8 }),
      cardRow("gpu-a", 0),
      cardRow("gone", 0),
      cardRow("stored-only", 0),
      cardRow("sim-b", 1),
    ],
    buildRows: [],
  };
  connect(registry, "sim-b", [0, 1]);
  connect(registry, "gpu-a", [0]);
  connect(registry, "cpu-only", []);
  connect(registry, "gone", [0], NOW_MS - 20_000);
  registry.heartbeat(
    "id-gpu-a",
    1,
    create(HeartbeatSchema, {
      gpus: [
        create(GpuSampleSchema, { uuid: "GPU-gpu-a-0", utilizationPercent: 10, powerWatts: 350 }),
      ],
    }),
    NOW_MS,
  );
  registry.disconnect("id-gone", 1, NOW_MS - 19_000);
  registry.facility.setLabels("id-gpu-a", { "llmgw.io/rack": "r7" });
  registry.facility.setCordon("id-sim-b", "draining");
  const deps = { registry, policy: DEFAULT_LIVENESS, nowMs: () => NOW_MS };
  const service = createNodesService(
    null as never,
    { rows: async () => rows },
    registry,
    DEFAULT_LIVENESS,
    () => NOW_MS,
  );
  return { registry, rows, deps, service };
}

describe("the light node lists", () => {
  it("say what the full list's summaries say, node for node", async () => {
    const { rows, deps, service } = fleet();
    const full = await service.list();
    expect(nodeSummaries(rows, deps)).toEqual(full.map(nodeSummaryOf));
    expect(nodeSummaries(rows, deps).find((n) => n.name === "sim-b")?.pcieDegradedCount).toBe(1);
  });

  it("say what the full list's card columns say, readings of a closed session unknown", async () => {
    const { rows, deps, service } = fleet();
    const cards = fleetCards(rows, deps);
    expect(cards).toEqual(fleetCardsOf(await service.list()));
    expect(cards.nodes.map((n) => n.name)).toEqual(["gone", "gpu-a", "sim-b", "stored-only"]);
    expect(cards.cards.utilizationPercent).toEqual([null, 10, 10, 20, null]);
  });

  it("work out the stored part once per read of the rows and the readings on every poll", () => {
    const { registry, rows, deps } = fleet();
    const first = fleetCards(rows, deps);
    connect(registry, "gpu-a", [0, 1, 2, 3, 4]);
    const second = fleetCards(rows, deps);
    expect(second.nodes).toBe(first.nodes);
    expect(second.cards.index).toBe(first.cards.index);
    expect(second.cards.utilizationPercent).not.toBe(first.cards.utilizationPercent);
    const reread: NodeRowSet = { ...rows, gpuRows: [...rows.gpuRows, cardRow("gpu-a", 1)] };
    expect(fleetCards(reread, deps).cards.index).toEqual([0, 0, 1, 0, 1, 0]);
  });

  it("give the facility page each node's place, cards and their measured draw", async () => {
    const { rows, deps, service } = fleet();
    const full = await service.list();
    const placed = facilityNodes(rows, deps);
    expect(placed).toEqual(
      full.map((node) => {
        const draws = node.gpus.flatMap((gpu) => (gpu.powerWatts === null ? [] : [gpu.powerWatts]));
        return {
          ...{ name: node.name, labels: node.labels, cardCount: node.gpus.length },
          powerWatts: draws.length === 0 ? null : draws.reduce((a, b) => a + b, 0),
        };
      }),
    );
    expect(placed.find((n) => n.name === "gpu-a")).toMatchObject({
      labels: { zone: "a", "llmgw.io/rack": "r7" },
      powerWatts: 350,
    });
  });
});
