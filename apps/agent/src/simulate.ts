// `--simulate PROFILE`: a made-up but plausible node for machines without GPUs. Cards and their
// identifiers are fixed by the node name, so a simulated node keeps its cards across restarts.
// A card's utilisation follows the load of the engine placed on it (requests running and waiting,
// read from the simulated engine's /metrics by the agent), so sending requests to a model through
// /v1 visibly heats its cards; a card with no engine idles at a few percent. Memory, temperature
// and power follow utilisation the way they do on a real card, with a little seeded noise so the
// samples still move. Everything produced here is labelled simulated on the wire.
import type { DiscoveredGpu, GpuSampleValues } from "./discovery/nvidia-smi";
import type { HostInfo, HostLoad } from "./discovery/host";
import { seededRandom, stableHash, type RandomFn } from "./random";

const MIB = 1024n * 1024n;
const GIB = 1024n * MIB;

interface CardModel {
  name: string;
  memoryMiB: number;
  computeCapability: string;
  pcieGen: number;
  pcieWidth: number;
  powerLimitWatts: number;
  powerIdleWatts: number;
}

const H100: CardModel = {
  name: "NVIDIA H100 80GB HBM3",
  memoryMiB: 81559,
  computeCapability: "9.0",
  pcieGen: 5,
  pcieWidth: 16,
  powerLimitWatts: 700,
  powerIdleWatts: 70,
};
const H200: CardModel = {
  name: "NVIDIA H200",
  memoryMiB: 143771,
  computeCapability: "9.0",
  pcieGen: 5,
  pcieWidth: 16,
  powerLimitWatts: 700,
  powerIdleWatts: 78,
};
const L40S: CardModel = {
  name: "NVIDIA L40S",
  memoryMiB: 46068,
  computeCapability: "8.9",
  pcieGen: 4,
  pcieWidth: 16,
  powerLimitWatts: 350,
  powerIdleWatts: 35,
};

export interface SimulationProfile {
  cards: CardModel[];
  cpuModel: string;
  cpuCores: number;
  memoryBytesTotal: bigint;
  diskBytesTotal: bigint;
}

const SERVER_CPU = "Intel(R) Xeon(R) Platinum 8480+";
export const SIMULATION_PROFILES: Record<string, SimulationProfile> = {
  h100x8: {
    cards: Array(8).fill(H100),
    cpuModel: SERVER_CPU,
    cpuCores: 112,
    memoryBytesTotal: 2048n * GIB,
    diskBytesTotal: 30_000n * GIB,
  },
  h200x8: {
    cards: Array(8).fill(H200),
    cpuModel: SERVER_CPU,
    cpuCores: 112,
    memoryBytesTotal: 2048n * GIB,
    diskBytesTotal: 30_000n * GIB,
  },
  l40sx4: {
    cards: Array(4).fill(L40S),
    cpuModel: "AMD EPYC 9354 32-Core Processor",
    cpuCores: 64,
    memoryBytesTotal: 512n * GIB,
    diskBytesTotal: 7_680n * GIB,
  },
  mixed: {
    cards: [H100, H100, L40S, L40S],
    cpuModel: SERVER_CPU,
    cpuCores: 56,
    memoryBytesTotal: 1024n * GIB,
    diskBytesTotal: 15_000n * GIB,
  },
  cpu: {
    cards: [],
    cpuModel: "AMD EPYC 9654 96-Core Processor",
    cpuCores: 192,
    memoryBytesTotal: 768n * GIB,
    diskBytesTotal: 3_840n * GIB,
  },
};

export const SIMULATION_PROFILE_NAMES = Object.keys(SIMULATION_PROFILES);

/** Thermal and load constants: an idle card sits near 30 °C, a saturated one near 80 °C. */
export const SIM_TEMPERATURE_IDLE_C = 30;
export const SIM_TEMPERATURE_BUSY_C = 80;
/** An idle card reads between these two (below the 5 % the console calls idle). */
const SIM_UTILIZATION_IDLE_MIN = 0.5;
export const SIM_UTILIZATION_IDLE_MAX = 3.5;
/** One running sequence already keeps a card busy; this many (running + waiting) saturate it. */
export const SIM_UTILIZATION_BUSY_FLOOR = 40;
export const SIM_SEQUENCES_SATURATING = 8;
/** Weights stay resident while an engine runs; its KV cache fills the rest as requests arrive. */
const MEMORY_IDLE_FRACTION = 0.01;
const MEMORY_WEIGHTS_FRACTION = 0.45;
const MEMORY_KV_FRACTION = 0.45;
const UTILIZATION_NOISE = 3;
const FOLLOW_RATE = 0.5;

/** How busy the engine on a card is, from its /metrics; absent numbers count as zero. */
export interface CardDemand {
  runningRequests: number;
  waitingRequests: number;
  /** 0..1 */
  kvCacheUsageRatio: number;
}

interface CardState {
  utilizationPercent: number;
  memoryFraction: number;
  temperatureCelsius: number;
}

export interface Simulation {
  readonly profileName: string;
  readonly gpus: DiscoveredGpu[];
  readonly host: HostInfo;
  /**
   * Advances one heartbeat and returns the new samples. `demands` maps a card index to the load of
   * the engine placed on it; a card missing from it has no engine and idles.
   */
  step(demands?: ReadonlyMap<number, CardDemand>): { gpus: GpuSampleValues[]; host: HostLoad };
}

/** `GPU-sim-` plus a hash of node, profile and slot, shaped like a real GPU uuid. */
export function simulatedGpuUuid(nodeName: string, profileName: string, index: number): string {
  const hex = stableHash(`${nodeName}/${profileName}/${index}`);
  return `GPU-sim-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function createSimulation(profileName: string, nodeName: string, seed: number): Simulation {
  const profile = SIMULATION_PROFILES[profileName];
  if (profile === undefined) {
    throw new Error(
      `unknown simulation profile "${profileName}"; use one of ${SIMULATION_PROFILE_NAMES.join(", ")}`,
    );
  }
  const random = seededRandom(seed);
  const slots = profile.cards.map((card, index) => {
    const uuid = simulatedGpuUuid(nodeName, profileName, index);
    const state: CardState = {
      utilizationPercent: SIM_UTILIZATION_IDLE_MIN,
      memoryFraction: MEMORY_IDLE_FRACTION,
      temperatureCelsius: SIM_TEMPERATURE_IDLE_C,
    };
    return { card, gpu: simulatedGpu(card, index, uuid, profile.cards.length), state };
  });
  const gpus = slots.map((slot) => slot.gpu);
  const host: HostInfo = {
    cpuModel: profile.cpuModel,
    cpuCores: profile.cpuCores,
    memoryBytesTotal: profile.memoryBytesTotal,
    diskBytesTotal: profile.diskBytesTotal,
    diskBytesFree: (profile.diskBytesTotal * 6n) / 10n,
    // That it is simulated is Register.simulated; the OS is what a real node would say.
    os: "linux",
    arch: "x86_64",
    ...(profile.cards.length > 0 ? { driverVersion: "590.48.01", cudaVersion: "13.1" } : {}),
  };
  let hostUtilization = random() * 10;
  const step = (demands?: ReadonlyMap<number, CardDemand>) => {
    const samples = slots.map((slot, index) =>
      stepCard(slot.state, slot.card, slot.gpu, demands?.get(index), random),
    );
    hostUtilization = walk(hostUtilization, random, 5);
    return { gpus: samples, host: simulatedHostLoad(host, hostUtilization) };
  };
  return { profileName, gpus, host, step };
}

/**
 * The last card of an L40S node sits in a slot wired ×8, as happens with risers and shared lanes:
 * a simulated fleet then shows the console's PCIe warning the way a real one would.
 */
function slotWidth(card: CardModel, index: number, cardCount: number): number {
  return card === L40S && cardCount === 4 && index === 3 ? 8 : card.pcieWidth;
}

function simulatedGpu(
  card: CardModel,
  index: number,
  uuid: string,
  cardCount: number,
): DiscoveredGpu {
  return {
    index,
    uuid,
    name: card.name,
    memoryBytesTotal: BigInt(card.memoryMiB) * MIB,
    computeCapability: card.computeCapability,
    pcieGenMax: card.pcieGen,
    pcieGenCardMax: card.pcieGen,
    pcieGenCurrent: card.pcieGen,
    pcieWidthMax: card.pcieWidth,
    pcieWidthCurrent: slotWidth(card, index, cardCount),
    pciBusId: `00000000:${(0x18 + index * 0x10).toString(16).toUpperCase().padStart(2, "0")}:00.0`,
    migEnabled: false,
    powerLimitWatts: card.powerLimitWatts,
  };
}

/** Utilisation as a card running this engine load would show it, before noise. */
export function utilizationTarget(demand: CardDemand | undefined): number {
  const sequences = demand ? demand.runningRequests + demand.waitingRequests : 0;
  if (sequences <= 0) return (SIM_UTILIZATION_IDLE_MIN + SIM_UTILIZATION_IDLE_MAX) / 2;
  const share = Math.min(1, sequences / SIM_SEQUENCES_SATURATING);
  return SIM_UTILIZATION_BUSY_FLOOR + (100 - SIM_UTILIZATION_BUSY_FLOOR) * share;
}

function memoryTarget(demand: CardDemand | undefined): number {
  if (!demand) return MEMORY_IDLE_FRACTION;
  return MEMORY_WEIGHTS_FRACTION + MEMORY_KV_FRACTION * clamp(demand.kvCacheUsageRatio, 0, 1);
}

function noisyUtilization(demand: CardDemand | undefined, random: RandomFn): number {
  const target = utilizationTarget(demand);
  const isIdle = target < SIM_UTILIZATION_BUSY_FLOOR;
  if (isIdle)
    return (
      SIM_UTILIZATION_IDLE_MIN + random() * (SIM_UTILIZATION_IDLE_MAX - SIM_UTILIZATION_IDLE_MIN)
    );
  return clamp(
    target + (random() * 2 - 1) * UTILIZATION_NOISE,
    SIM_UTILIZATION_BUSY_FLOOR - 5,
    100,
  );
}

/** Utilisation answers load at once, as on a real card; memory and heat lag behind it. */
function stepCard(
  state: CardState,
  card: CardModel,
  gpu: DiscoveredGpu,
  demand: CardDemand | undefined,
  random: RandomFn,
): GpuSampleValues {
  state.utilizationPercent = noisyUtilization(demand, random);
  const load = state.utilizationPercent / 100;
  const memoryGoal = memoryTarget(demand);
  state.memoryFraction = clamp(
    state.memoryFraction + (memoryGoal - state.memoryFraction) * FOLLOW_RATE,
    0,
    1,
  );
  const temperatureTarget =
    SIM_TEMPERATURE_IDLE_C + (SIM_TEMPERATURE_BUSY_C - SIM_TEMPERATURE_IDLE_C) * load;
  state.temperatureCelsius += (temperatureTarget - state.temperatureCelsius) * FOLLOW_RATE;
  const noiseWatts = (random() - 0.5) * 0.04 * card.powerLimitWatts;
  const powerWatts = clamp(
    card.powerIdleWatts + (card.powerLimitWatts - card.powerIdleWatts) * load + noiseWatts,
    card.powerIdleWatts * 0.8,
    card.powerLimitWatts,
  );
  return {
    uuid: gpu.uuid,
    utilizationPercent: round(state.utilizationPercent, 1),
    memoryBytesUsed: wholeMiB(
      (gpu.memoryBytesTotal * BigInt(Math.round(state.memoryFraction * 10_000))) / 10_000n,
    ),
    temperatureCelsius: round(state.temperatureCelsius, 1),
    powerWatts: round(powerWatts, 2),
  };
}

/** nvidia-smi reports a card's memory in whole MiB (`memory.used [MiB]`), so the simulation does. */
function wholeMiB(bytes: bigint): bigint {
  return (bytes / MIB) * MIB;
}

function simulatedHostLoad(host: HostInfo, cpuUtilizationPercent: number): HostLoad {
  const memoryFraction = 0.1 + 0.5 * (cpuUtilizationPercent / 100);
  return {
    cpuUtilizationPercent: round(cpuUtilizationPercent, 1),
    memoryBytesUsed: (host.memoryBytesTotal * BigInt(Math.round(memoryFraction * 1000))) / 1000n,
    diskBytesFree: host.diskBytesFree,
  };
}

/** A step of at most `stepMax` either way, reflected at 0 and 100 so it never sticks to a wall. */
function walk(value: number, random: RandomFn, stepMax: number): number {
  const next = value + (random() * 2 - 1) * stepMax;
  return next < 0 ? -next : next > 100 ? 200 - next : next;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
