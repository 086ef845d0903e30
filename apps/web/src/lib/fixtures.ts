// Node and card factories for the console's unit tests; defaults look like a real H100 host.
import type { GpuView, NodeSummary, NodeView } from "@llmgw/api";
import { nodeSummaryOf } from "@llmgw/api/schemas";

export function gpuFixture(overrides: Partial<GpuView> = {}): GpuView {
  return {
    index: 0,
    uuid: "GPU-00000000-0000-0000-0000-000000000000",
    name: "NVIDIA H100 80GB HBM3",
    memoryBytesTotal: 81_559 * 1024 ** 2,
    memoryBytesUsed: 1024 ** 3,
    computeCapability: "9.0",
    pcieGenMax: 5,
    pcieGenCardMax: 5,
    pcieGenCurrent: 5,
    pcieWidthMax: 16,
    pcieWidthCurrent: 16,
    pcieLink: { carriedGBps: 63, possibleGBps: 63, isBelowCapability: false, reason: null },
    migEnabled: false,
    utilizationPercent: 12,
    temperatureCelsius: 41,
    powerWatts: 120,
    ...overrides,
  };
}

/** A card on half its lanes, as the server reports it. */
export const NARROW_PCIE_LINK: GpuView["pcieLink"] = {
  carriedGBps: 31.5,
  possibleGBps: 63,
  isBelowCapability: true,
  reason: "PCIe link below the card's: x8 of its x16 lanes in use; it carries 31.5 GB/s of 63 GB/s",
};

export function nodeFixture(overrides: Partial<NodeView> = {}): NodeView {
  return {
    id: "node-1",
    name: "gpu-1",
    state: "ready",
    simulated: false,
    simulationProfile: null,
    agentVersion: "0.1.0",
    labels: {},
    storedLabels: {},
    cordon: null,
    engines: ["vllm"],
    engineInstalls: [],
    engineBuild: { choice: "auto", setBy: null, setAt: null, applied: null },
    features: [],
    firstSeenAt: "2026-03-01T10:00:00Z",
    lastSeenAt: "2026-03-01T12:00:00Z",
    cpu: { model: "AMD EPYC 9454", cores: 96, utilizationPercent: 5 },
    memory: { bytesTotal: 1024 * 1024 ** 3, bytesUsed: null },
    disk: { bytesTotal: 4 * 1024 ** 4, bytesFree: 3 * 1024 ** 4 },
    network: { receiveBytesPerSecond: 1_250_000, transmitBytesPerSecond: 40_000 },
    heartbeatAgeSeconds: 1.2,
    os: "Ubuntu 22.04",
    arch: "x86_64",
    driverVersion: "550.54.15",
    gpus: [],
    ...overrides,
  };
}

/** The nodes table's row for a node built like `nodeFixture`'s (the server summarises the same way). */
export function nodeSummaryFixture(overrides: Partial<NodeView> = {}): NodeSummary {
  return nodeSummaryOf(nodeFixture(overrides));
}
