// What a node is apart from its GPUs: CPU, memory, the disk holding the agent's data, OS. Read
// through an injectable probe so tests need not depend on the machine they run on.
import { statfs } from "node:fs/promises";
import os from "node:os";

export interface HostInfo {
  cpuModel: string;
  cpuCores: number;
  memoryBytesTotal: bigint;
  diskBytesTotal: bigint;
  diskBytesFree: bigint;
  os: string;
  arch: string;
  driverVersion?: string;
  cudaVersion?: string;
}

export interface HostLoad {
  cpuUtilizationPercent?: number;
  memoryBytesUsed?: bigint;
  diskBytesFree?: bigint;
}

export interface HostProbe {
  cpus(): Pick<os.CpuInfo, "model" | "times">[];
  totalmem(): number;
  freemem(): number;
  statfs(path: string): Promise<{ bsize: number; blocks: number; bavail: number }>;
  platform(): string;
  release(): string;
  arch(): string;
}

const nodeHostProbe: HostProbe = {
  cpus: () => os.cpus(),
  totalmem: () => os.totalmem(),
  freemem: () => os.freemem(),
  statfs: (path) => statfs(path),
  platform: () => os.platform(),
  release: () => os.release(),
  arch: () => os.arch(),
};

/** Reads the host; `dataDir` names the disk the agent reports (where weights will live). */
export async function discoverHost(
  dataDir: string,
  versions: { driverVersion?: string; cudaVersion?: string } = {},
  probe: HostProbe = nodeHostProbe,
): Promise<HostInfo> {
  const cpus = probe.cpus();
  const disk = await readDisk(dataDir, probe);
  return {
    cpuModel: cpus[0]?.model.trim() ?? "",
    cpuCores: cpus.length,
    memoryBytesTotal: BigInt(probe.totalmem()),
    diskBytesTotal: disk?.total ?? 0n,
    diskBytesFree: disk?.free ?? 0n,
    os: `${probe.platform()} ${probe.release()}`,
    arch: probe.arch(),
    ...versions,
  };
}

async function readDisk(
  path: string,
  probe: HostProbe,
): Promise<{ total: bigint; free: bigint } | undefined> {
  try {
    const stats = await probe.statfs(path);
    return {
      total: BigInt(stats.bsize) * BigInt(stats.blocks),
      free: BigInt(stats.bsize) * BigInt(stats.bavail),
    };
  } catch {
    // A data dir on a vanished mount must not stop the agent; the disk is then reported unknown.
    return undefined;
  }
}

/**
 * Returns a sampler of host load. CPU utilisation is the busy share of CPU time since the previous
 * sample, so the first sample has none rather than a made-up figure.
 */
export function createHostLoadSampler(
  dataDir: string,
  probe: HostProbe = nodeHostProbe,
): () => Promise<HostLoad> {
  let previous = cpuTimes(probe);
  return async () => {
    const current = cpuTimes(probe);
    const total = current.total - previous.total;
    const cpuUtilizationPercent =
      total > 0 ? (100 * (current.busy - previous.busy)) / total : undefined;
    previous = current;
    const disk = await readDisk(dataDir, probe);
    const load: HostLoad = {
      memoryBytesUsed: BigInt(Math.max(0, probe.totalmem() - probe.freemem())),
    };
    if (cpuUtilizationPercent !== undefined)
      load.cpuUtilizationPercent = clampPercent(cpuUtilizationPercent);
    if (disk !== undefined) load.diskBytesFree = disk.free;
    return load;
  };
}

function cpuTimes(probe: HostProbe): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of probe.cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  return { busy, total };
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, value));
}
