// Gathers what the doctor judges: nvidia-smi, `lspci -vv`, the cache's disk, the node's
// certificate, the clock against the control plane, engine installs and the memory read rate.
// Everything that touches the machine is passed in, so tests feed captured text and fixed numbers.
import { statfs } from "node:fs/promises";
import { existsSync } from "node:fs";
import { messageOf } from "@llmgw/domain";
import { cacheDirOf } from "../cache/layout";
import { discoverGpus } from "../discovery/nvidia-smi";
import type { ExecFn } from "../discovery/exec";
import { nodeTlsPaths } from "../node-tls";
import type { DoctorCheck } from "./check";
import {
  checkClockSkew,
  checkDiskRoom,
  checkEngineInstalls,
  checkGpuDriver,
  checkLinkCertificate,
  checkMemoryReadRate,
  type EngineInstallReading,
} from "./checks";
import { gradePcieLink, parseLspciLinks } from "./lspci";
import { readFile } from "node:fs/promises";

export interface DoctorDeps {
  exec: ExecFn;
  nowMs: () => number;
  dataDir: string;
  /** This node's clock minus the control plane's, or why it could not be compared. */
  clockSkewMs: () => Promise<{ skewMs: number } | { why: string }>;
  /** The agent's engine installs; absent when no agent runs in this process. */
  engineInstalls?: () => EngineInstallReading[];
  memoryReadRate: () => Promise<number>;
  diskRoom?: (dir: string) => Promise<{ freeBytes: number; totalBytes: number }>;
}

const EXEC_TIMEOUT_MS = 15_000;

async function statDisk(dir: string): Promise<{ freeBytes: number; totalBytes: number }> {
  const stats = await statfs(dir);
  return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
}

async function gpuChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const found = await discoverGpus(deps.exec, { timeoutMs: EXEC_TIMEOUT_MS });
  const driver = checkGpuDriver({
    ...(found.reason === undefined ? {} : { missing: found.reason }),
    ...(found.driverVersion === undefined ? {} : { driverVersion: found.driverVersion }),
    ...(found.cudaVersion === undefined ? {} : { cudaVersion: found.cudaVersion }),
    gpuCount: found.rows.length,
  });
  if (found.rows.length === 0) return [driver];
  return [driver, ...(await pcieChecks(deps))];
}

async function pcieChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const fix =
    "install pciutils (`apt-get install pciutils`) so the doctor can read LnkCap and LnkSta";
  try {
    const result = await deps.exec("lspci", ["-vv"], { timeoutMs: EXEC_TIMEOUT_MS });
    const links = parseLspciLinks(result.stdout);
    if (links.length === 0)
      return [
        {
          id: "pcie",
          status: "warn",
          summary: "lspci lists no NVIDIA card",
          fix: "run `lspci -vv` and look for the cards nvidia-smi lists",
        },
      ];
    return links.map(gradePcieLink);
  } catch (error) {
    return [
      { id: "pcie", status: "warn", summary: `PCIe links not read: ${messageOf(error)}`, fix },
    ];
  }
}

async function diskCheck(deps: DoctorDeps): Promise<DoctorCheck> {
  // The cache is made on first download; until then its disk is the data directory's.
  const cacheDir = cacheDirOf(deps.dataDir);
  const dir = existsSync(cacheDir) ? cacheDir : deps.dataDir;
  try {
    return checkDiskRoom({ dir, ...(await (deps.diskRoom ?? statDisk)(dir)) });
  } catch (error) {
    return {
      id: "disk.cache",
      status: "fail",
      summary: `the disk of ${dir} cannot be read: ${messageOf(error)}`,
      fix: "check --data-dir",
    };
  }
}

async function certificateCheck(deps: DoctorDeps): Promise<DoctorCheck> {
  const path = nodeTlsPaths(deps.dataDir).cert;
  const pem = await readFile(path, "utf8").catch(() => null);
  return checkLinkCertificate(pem, deps.nowMs());
}

async function memoryCheck(deps: DoctorDeps): Promise<DoctorCheck> {
  try {
    return checkMemoryReadRate(await deps.memoryReadRate());
  } catch (error) {
    return checkMemoryReadRate(null, messageOf(error));
  }
}

/** Every check, in the order an operator reads them: cards first, then the node around them. */
export async function runDoctorChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const skew = await deps.clockSkewMs();
  return [
    ...(await gpuChecks(deps)),
    await diskCheck(deps),
    "skewMs" in skew ? checkClockSkew(skew.skewMs) : checkClockSkew(null, skew.why),
    await certificateCheck(deps),
    ...(deps.engineInstalls === undefined ? [] : checkEngineInstalls(deps.engineInstalls())),
    await memoryCheck(deps),
  ];
}
