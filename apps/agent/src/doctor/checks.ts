// The doctor's judgements, each a pure function of what was read on the node and of the time, so
// every threshold is tested without a GPU, a full disk or a skewed clock.
import { X509Certificate } from "node:crypto";
import { DRIVER_MAJOR_MIN, driverMajorOf } from "@llmgw/domain";
import { pass, type DoctorCheck } from "./check";

const GIB = 2 ** 30;
/** Below this free on the cache's disk no large model fits: fail. */
const DISK_FREE_FAIL_BYTES = 20 * GIB;
/** Below this a second model or an update may not: warn. */
const DISK_FREE_WARN_BYTES = 100 * GIB;
/** Clocks further apart than this make logs and timings disagree: warn. */
const SKEW_WARN_MS = 2_000;
/** Further apart than this and certificate validity and join-token expiry go wrong: fail. */
const SKEW_FAIL_MS = 60_000;
/** The agent renews its certificate well before this; one this close to expiry did not renew. */
const CERT_WARN_MS = 7 * 24 * 3_600_000;
/** Below this a CPU engine's tokens per second is poor (a laptop's dual channel DDR4 reads ~20 GB/s). */
const MEMORY_READ_WARN_BYTES_PER_S = 10e9;

export interface GpuReading {
  /** Why nvidia-smi gave nothing (missing, failed); absent when it ran. */
  missing?: string;
  driverVersion?: string;
  cudaVersion?: string;
  gpuCount: number;
}

/** The driver against what the vLLM builds need (CUDA 13 from 580, CUDA 12.9 from 575). */
export function checkGpuDriver(gpu: GpuReading): DoctorCheck {
  const id = "gpu.driver";
  if (gpu.missing !== undefined)
    return {
      id,
      status: "warn",
      summary: `no GPUs: ${gpu.missing}; this node can serve CPU engines only`,
      fix: "if the node has NVIDIA cards, install the NVIDIA driver so that `nvidia-smi` runs",
    };
  if (gpu.gpuCount === 0)
    return {
      id,
      status: "warn",
      summary: "nvidia-smi runs but lists no GPUs",
      fix: "check `nvidia-smi -L` and `dmesg | grep -i nvidia`",
    };
  const version = gpu.driverVersion ?? "unknown";
  const cuda = gpu.cudaVersion === undefined ? "" : `, CUDA ${gpu.cudaVersion}`;
  const major = driverMajorOf(version);
  const found = `${gpu.gpuCount} GPU${gpu.gpuCount === 1 ? "" : "s"}, driver ${version}${cuda}`;
  if (major === null || major < DRIVER_MAJOR_MIN.cu129)
    return {
      id,
      status: "fail",
      summary: `${found}: vLLM's CUDA 12.9 build needs driver ${DRIVER_MAJOR_MIN.cu129} or newer`,
      fix: `upgrade the NVIDIA driver to ${DRIVER_MAJOR_MIN.cu13} or newer (CUDA 13)`,
    };
  if (major < DRIVER_MAJOR_MIN.cu13)
    return {
      id,
      status: "warn",
      summary: `${found}: runs vLLM's CUDA 12.9 build only; CUDA 13 needs driver ${DRIVER_MAJOR_MIN.cu13}`,
      fix: `upgrade the NVIDIA driver to ${DRIVER_MAJOR_MIN.cu13} or newer for the CUDA 13 build`,
    };
  return pass(id, `${found}: runs vLLM's CUDA 13 build`);
}

export function checkDiskRoom(disk: {
  dir: string;
  freeBytes: number;
  totalBytes: number;
}): DoctorCheck {
  const id = "disk.cache";
  const free = `${(disk.freeBytes / GIB).toFixed(1)} GiB free of ${(disk.totalBytes / GIB).toFixed(1)} GiB`;
  const fix = `free room on the disk of ${disk.dir} (\`llmgw ctl reclaim --collect\` removes weights no model wants) or give the agent a --data-dir on a larger disk`;
  if (disk.freeBytes < DISK_FREE_FAIL_BYTES)
    return {
      id,
      status: "fail",
      summary: `model cache ${disk.dir}: ${free}; under ${DISK_FREE_FAIL_BYTES / GIB} GiB no large model fits`,
      fix,
    };
  if (disk.freeBytes < DISK_FREE_WARN_BYTES)
    return {
      id,
      status: "warn",
      summary: `model cache ${disk.dir}: ${free}; under ${DISK_FREE_WARN_BYTES / GIB} GiB`,
      fix,
    };
  return pass(id, `model cache ${disk.dir}: ${free}`);
}

/** skewMs: this node's clock minus the control plane's; null when the control plane was not asked. */
export function checkClockSkew(skewMs: number | null, why = ""): DoctorCheck {
  const id = "clock.skew";
  if (skewMs === null)
    return {
      id,
      status: "warn",
      summary: `clock not compared with the control plane: ${why}`,
      fix: "check that the node has joined and the control plane is reachable",
    };
  const seconds = `${(Math.abs(skewMs) / 1000).toFixed(1)} s ${skewMs >= 0 ? "ahead of" : "behind"} the control plane`;
  const fix = "run a time service (chrony or systemd-timesyncd) on the node and the control plane";
  if (Math.abs(skewMs) >= SKEW_FAIL_MS)
    return { id, status: "fail", summary: `clock ${seconds}`, fix };
  if (Math.abs(skewMs) >= SKEW_WARN_MS)
    return { id, status: "warn", summary: `clock ${seconds}`, fix };
  return pass(id, `clock ${seconds}`);
}

/** The node's certificate for the agent link, by its validity against now. */
export function checkLinkCertificate(certPem: string | null, nowMs: number): DoctorCheck {
  const id = "link.certificate";
  if (certPem === null)
    return {
      id,
      status: "fail",
      summary: "the node has not joined: no certificate in its data directory",
      fix: "join it: `llmgw agent join wss://HOST:8081 --token-file F --ca-sha256 H`",
    };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    return {
      id,
      status: "fail",
      summary: "the node's certificate (pki/node.crt) cannot be read",
      fix: "join the node again with a new token",
    };
  }
  const notAfterMs = Date.parse(cert.validTo);
  const expires = `${cert.subject.replace(/\n/g, ", ")}, valid until ${new Date(notAfterMs).toISOString()}`;
  if (notAfterMs <= nowMs)
    return {
      id,
      status: "fail",
      summary: `certificate expired: ${expires}`,
      fix: "join the node again with a new token; an expired certificate cannot renew itself",
    };
  if (notAfterMs - nowMs < CERT_WARN_MS)
    return {
      id,
      status: "warn",
      summary: `certificate expires within 7 days: ${expires}`,
      fix: "start the agent so it renews its certificate, or join again",
    };
  return pass(id, `certificate ${expires}`);
}

export interface EngineInstallReading {
  engine: string;
  state: string;
  message: string;
}

/** One line for every engine install the agent manages; a failed install fails. */
export function checkEngineInstalls(installs: readonly EngineInstallReading[]): DoctorCheck[] {
  if (installs.length === 0) return [pass("engines", "no engine installs managed by this agent")];
  return installs.map((install) => {
    const id = `engine.${install.engine}`;
    const said = install.message === "" ? "" : `: ${install.message}`;
    if (install.state === "failed")
      return {
        id,
        status: "fail",
        summary: `${install.engine} install failed${said}`,
        fix: `see \`llmgw ctl logs NODE\` for the install's output; the agent retries on its next start`,
      };
    if (install.state === "ready") return pass(id, `${install.engine} installed${said}`);
    return {
      id,
      status: "warn",
      summary: `${install.engine} is ${install.state}${said}`,
      fix: "wait for the install to finish",
    };
  });
}

export function checkMemoryReadRate(bytesPerSecond: number | null, why = ""): DoctorCheck {
  const id = "memory.read-rate";
  if (bytesPerSecond === null)
    return { id, status: "warn", summary: `memory read rate not measured: ${why}`, fix: "" };
  const rate = `${(bytesPerSecond / 1e9).toFixed(1)} GB/s`;
  if (bytesPerSecond < MEMORY_READ_WARN_BYTES_PER_S)
    return {
      id,
      status: "warn",
      summary: `memory reads at ${rate}; CPU engines will be slow`,
      fix: "check that every memory channel is populated (`dmidecode -t memory`) and the node is not swapping",
    };
  return pass(id, `memory reads at ${rate}`);
}
