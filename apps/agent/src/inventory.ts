// What this node has and how busy it is, from the real machine or from a simulation, in the shape
// the wire wants. Everything downstream treats both sources the same; only Register says which.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LLMGW_VERSION, messageOf } from "@llmgw/domain";
import { ENGINE_NAMES } from "@llmgw/engines";
import { AGENT_FEATURE, type AgentFeature, type EngineInstall } from "@llmgw/proto";
import type { SourceConfigReport } from "./cache/source-config";
import type { AgentConfig } from "./config";
import type { HeartbeatContent, RegisterInit } from "./connection-options";
import {
  createHostLoadSampler,
  discoverHost,
  type HostInfo,
  type HostLoad,
  type HostProbe,
} from "./discovery/host";
import {
  discoverGpus,
  sampleGpus,
  type DiscoveredGpu,
  type GpuSampleValues,
} from "./discovery/nvidia-smi";
import type { ExecFn } from "./discovery/exec";
import type { Logger } from "./log-ring";
import type { ReplicaStatusInit } from "./replicas/replica-deps";
import { createSimulation, type CardDemand } from "./simulate";

export const AGENT_VERSION = LLMGW_VERSION;

export interface Inventory {
  simulationProfile: string | undefined;
  gpus: DiscoveredGpu[];
  host: HostInfo;
  engines: string[];
  sample(): Promise<{ gpus: GpuSampleValues[]; host: HostLoad }>;
}

/** `readDemands` tells the simulation how busy the engine on each card is (none: all idle). */
export function simulatedInventory(
  profile: string,
  nodeName: string,
  seed: number,
  readDemands: () => Promise<ReadonlyMap<number, CardDemand>> = async () => new Map(),
  dataDir?: string,
): Inventory {
  const simulation = createSimulation(profile, nodeName, seed);
  return {
    simulationProfile: profile,
    gpus: simulation.gpus,
    host: simulation.host,
    engines: [...ENGINE_NAMES],
    sample: async () => {
      const sample = simulation.step(await readDemands());
      const diskBytesFree = dataDir === undefined ? undefined : simulatedDiskFree(dataDir);
      return diskBytesFree === undefined
        ? sample
        : { ...sample, host: { ...sample.host, diskBytesFree } };
    },
  };
}

/** The file in a simulated node's data dir that, while present, sets its disk's free bytes. */
export const SIMULATED_DISK_FREE_FILE = "simulated-disk-free";

/**
 * A simulated node's disk is simulated too: writing a number of bytes to
 * `<data-dir>/simulated-disk-free` makes the node report that much free (a full disk to rehearse
 * with), removing the file gives the profile's disk back. Read on every beat.
 */
function simulatedDiskFree(dataDir: string): bigint | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, SIMULATED_DISK_FREE_FILE), "utf8").trim();
  } catch {
    return undefined;
  }
  return /^\d{1,20}$/.test(text) ? BigInt(text) : undefined;
}

/** Discovers the real machine; a node without nvidia-smi is a CPU node, said in the log. */
export async function realInventory(
  dataDir: string,
  exec: ExecFn,
  logger: Logger,
  probe?: HostProbe,
): Promise<Inventory> {
  const discovery = await discoverGpus(exec);
  if (discovery.reason !== undefined) logger.warn("no gpus", { why: discovery.reason });
  const versions = { driverVersion: discovery.driverVersion, cudaVersion: discovery.cudaVersion };
  const host = await discoverHost(dataDir, dropUndefined(versions), probe);
  const hostLoad = createHostLoadSampler(dataDir, probe);
  const gpus = discovery.rows.map((row) => row.gpu);
  const sampleCards = async (): Promise<GpuSampleValues[]> => {
    if (gpus.length === 0) return [];
    try {
      return await sampleGpus(exec, discovery.fields);
    } catch (error) {
      // A failed sample leaves the cards unmeasured for one beat; the host load still goes out.
      logger.warn("gpu sample failed", { why: messageOf(error) });
      return [];
    }
  };
  return {
    simulationProfile: undefined,
    gpus,
    host,
    engines: [],
    sample: async () => ({ gpus: await sampleCards(), host: await hostLoad() }),
  };
}

/** What this agent answers besides heartbeats, so the control plane never asks for more. */
export const AGENT_FEATURES: readonly AgentFeature[] = [
  AGENT_FEATURE.replicas,
  AGENT_FEATURE.logs,
  AGENT_FEATURE.logSearch,
  AGENT_FEATURE.reclaim,
  AGENT_FEATURE.upgrade,
  AGENT_FEATURE.engineBuild,
  AGENT_FEATURE.doctor,
  AGENT_FEATURE.fabricTest,
];

export function buildRegister(
  config: Pick<AgentConfig, "nodeName" | "labels">,
  nodeId: string,
  inventory: Inventory,
  replicas: ReplicaStatusInit[] = [],
  engineInstalls: EngineInstall[] = [],
  sourceConfigs: SourceConfigReport[] = [],
): RegisterInit {
  const { host } = inventory;
  return {
    nodeId,
    nodeName: config.nodeName,
    agentVersion: AGENT_VERSION,
    features: [...AGENT_FEATURES],
    replicas,
    labels: config.labels,
    engines: inventory.engines,
    engineInstalls,
    sourceConfigs,
    simulated: inventory.simulationProfile !== undefined,
    simulationProfile: inventory.simulationProfile ?? "",
    // Register.join_token is deprecated: the node certificate is the identity, and the token,
    // spent at join, is never sent again.
    hardware: registerHardware(inventory.gpus, host),
  };
}

/** A Register's hardware: the node's cards and host as the agent found them. */
export function registerHardware(
  gpus: Inventory["gpus"],
  host: Inventory["host"],
): NonNullable<RegisterInit["hardware"]> {
  return {
    gpus,
    cpu: { model: host.cpuModel, cores: host.cpuCores },
    memoryBytesTotal: host.memoryBytesTotal,
    diskBytesTotal: host.diskBytesTotal,
    diskBytesFree: host.diskBytesFree,
    os: host.os,
    arch: host.arch,
    driverVersion: host.driverVersion ?? "",
    cudaVersion: host.cudaVersion ?? "",
  };
}

/** The sampled part of a heartbeat; the replicas' level is added when it is sent (replicaLevel). */
export async function buildHeartbeat(
  inventory: Inventory,
  memoryReadBytesPerSecond?: number,
  engineInstalls: EngineInstall[] = [],
  sourceConfigs: SourceConfigReport[] = [],
): Promise<HeartbeatContent> {
  const { gpus, host } = await inventory.sample();
  return { gpus, ...host, memoryReadBytesPerSecond, engineInstalls, sourceConfigs };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
