// A made-up fleet for the heatmap benchmark (bench/heatmap): `nodeCount` nodes of 8 cards with
// readings from a seeded generator, so every run draws the same pictures.
import type { GpuView, NodeView } from "@llmgw/api";

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32: fast, deterministic, good enough for test pictures.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function card(index: number, random: () => number): GpuView {
  return {
    index,
    uuid: `GPU-bench-${index}`,
    name: "NVIDIA H100 80GB HBM3",
    memoryBytesTotal: 80 * 2 ** 30,
    memoryBytesUsed: Math.round(random() * 80 * 2 ** 30),
    computeCapability: "9.0",
    pcieGenMax: 5,
    pcieGenCardMax: 5,
    pcieGenCurrent: 5,
    pcieWidthMax: 16,
    pcieWidthCurrent: 16,
    pcieLink: { carriedGBps: 63, possibleGBps: 63, isBelowCapability: false, reason: null },
    migEnabled: false,
    utilizationPercent: random() * 100,
    temperatureCelsius: 30 + random() * 50,
    powerWatts: null,
  };
}

export function syntheticFleet(nodeCount: number, cardsPerNode: number, seed: number): NodeView[] {
  const random = seededRandom(seed);
  return Array.from({ length: nodeCount }, (_, n) => ({
    id: `bench-${String(n).padStart(5, "0")}`,
    name: `bench-${String(n).padStart(5, "0")}`,
    state: "ready" as const,
    simulated: true,
    simulationProfile: "bench",
    agentVersion: "bench",
    labels: {},
    storedLabels: {},
    cordon: null,
    engines: [],
    engineInstalls: [],
    engineBuild: { choice: "auto", setBy: null, setAt: null, applied: null },
    features: [],
    firstSeenAt: "2026-01-01T00:00:00Z",
    lastSeenAt: "2026-01-01T00:00:00Z",
    cpu: { model: "bench", cores: 1, utilizationPercent: null },
    memory: { bytesTotal: 1, bytesUsed: null },
    disk: { bytesTotal: 1, bytesFree: null },
    network: { receiveBytesPerSecond: null, transmitBytesPerSecond: null },
    heartbeatAgeSeconds: null,
    os: "bench",
    arch: "bench",
    driverVersion: null,
    gpus: Array.from({ length: cardsPerNode }, (_, i) => card(i, random)),
  }));
}

/** New utilisation readings: `changeShare` of the cards get a fresh random value, the rest keep theirs. */
export function nextReadings(
  previous: Float32Array,
  changeShare: number,
  random: () => number,
): Float32Array {
  const next = new Float32Array(previous);
  for (let cell = 0; cell < next.length; cell++) {
    if (random() < changeShare) next[cell] = random() * 100;
  }
  return next;
}
