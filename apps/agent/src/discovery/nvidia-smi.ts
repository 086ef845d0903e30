// Reads a node's GPUs from `nvidia-smi --query-gpu=... --format=csv`. Columns are looked up by
// header name, never by position, because drivers add, drop and reorder fields. A value the
// driver does not report ([N/A], [Not Supported], empty) stays absent: an unreported measurement
// shown as zero would read as an idle or empty card.
import { messageOf } from "@llmgw/domain";
import { parseCsvRows } from "./csv";
import { ExecError, type ExecFn } from "./exec";

const MIB_BYTES = 1024 * 1024;

/** Fields every driver we support knows; a driver rejecting one of them cannot be used. */
export const NVIDIA_SMI_CORE_FIELDS = [
  "index",
  "uuid",
  "name",
  "pci.bus_id",
  "driver_version",
  "memory.total",
  "memory.used",
  "temperature.gpu",
  "power.draw",
  "power.limit",
] as const;

/**
 * Fields a driver may not know. utilization.gpu goes last: a driver too old for it returns a
 * shorter row, and it must never stop discovery.
 */
export const NVIDIA_SMI_OPTIONAL_FIELDS = [
  "compute_cap",
  "mig.mode.current",
  "pcie.link.gen.max",
  "pcie.link.gen.gpumax",
  "pcie.link.gen.hostmax",
  "pcie.link.gen.gpucurrent",
  "pcie.link.gen.current",
  "pcie.link.width.max",
  "pcie.link.width.current",
  "utilization.gpu",
] as const;

export const NVIDIA_SMI_QUERY_FIELDS: readonly string[] = [
  ...NVIDIA_SMI_CORE_FIELDS,
  ...NVIDIA_SMI_OPTIONAL_FIELDS,
];

/** What nvidia-smi says about a card, shaped to fill the proto `Gpu`. */
export interface DiscoveredGpu {
  index: number;
  uuid: string;
  name: string;
  memoryBytesTotal: bigint;
  computeCapability: string;
  /** The fastest generation card and slot allow together. */
  pcieGenMax?: number;
  /** The fastest generation the card itself supports; above pcieGenMax, the slot is older. */
  pcieGenCardMax?: number;
  /** Drops while the card idles; shown, never compared. */
  pcieGenCurrent?: number;
  pcieWidthMax?: number;
  pcieWidthCurrent?: number;
  pciBusId: string;
  migEnabled: boolean;
  powerLimitWatts?: number;
}

/** One measurement of a card, shaped to fill the proto `GpuSample`. */
export interface GpuSampleValues {
  uuid: string;
  utilizationPercent?: number;
  memoryBytesUsed?: bigint;
  temperatureCelsius?: number;
  powerWatts?: number;
}

export interface NvidiaSmiGpuRow {
  gpu: DiscoveredGpu;
  sample: GpuSampleValues;
  driverVersion?: string;
}

class NvidiaSmiParseError extends Error {
  override readonly name = "NvidiaSmiParseError";
}

/** A cell with its header's unit, e.g. `memory.total [MiB]` → unit "MiB". */
interface Cell {
  raw: string;
  unit: string | undefined;
}

type RowReader = (field: string) => Cell | undefined;

/** Parses the whole CSV output (header line plus one row per card). */
export function parseNvidiaSmiCsv(text: string): NvidiaSmiGpuRow[] {
  const rows = parseCsvRows(text);
  const header = rows[0];
  if (header === undefined) throw new NvidiaSmiParseError("nvidia-smi printed no CSV header");
  const columns = header.map(parseHeaderName);
  if (!columns.some((column) => column.field === "uuid")) {
    throw new NvidiaSmiParseError(
      `nvidia-smi CSV has no uuid column (header: ${header.join(", ")})`,
    );
  }
  const result: NvidiaSmiGpuRow[] = [];
  rows.slice(1).forEach((values, position) => {
    const read: RowReader = (field) => {
      const at = columns.findIndex((column) => column.field === field);
      const raw = at < 0 ? undefined : values[at];
      return raw === undefined ? undefined : { raw, unit: columns[at]?.unit };
    };
    const parsed = parseRow(read, position);
    if (parsed !== undefined) result.push(parsed);
  });
  return result;
}

function parseHeaderName(header: string): { field: string; unit: string | undefined } {
  // Without a `[unit]` suffix the whole header is the field.
  const [, field = header, unit] = /^(.*?)\s*\[([^\]]*)\]\s*$/.exec(header) ?? [];
  return { field: field.trim(), unit };
}

function parseRow(read: RowReader, position: number): NvidiaSmiGpuRow | undefined {
  const uuid = text(read("uuid"));
  // A row without a uuid is a driver complaint printed into the table, not a card.
  if (uuid === undefined) return undefined;
  const gpu: DiscoveredGpu = {
    index: integer(read("index")) ?? position,
    uuid,
    name: text(read("name")) ?? "",
    memoryBytesTotal: bytes(read("memory.total")) ?? 0n,
    computeCapability: text(read("compute_cap")) ?? "",
    pcieGenMax: lowest(
      integer(read("pcie.link.gen.max")),
      integer(read("pcie.link.gen.gpumax")),
      integer(read("pcie.link.gen.hostmax")),
    ),
    pcieGenCardMax: integer(read("pcie.link.gen.gpumax")),
    pcieGenCurrent:
      integer(read("pcie.link.gen.gpucurrent")) ?? integer(read("pcie.link.gen.current")),
    pcieWidthMax: integer(read("pcie.link.width.max")),
    pcieWidthCurrent: integer(read("pcie.link.width.current")),
    pciBusId: text(read("pci.bus_id")) ?? "",
    migEnabled: text(read("mig.mode.current"))?.toLowerCase() === "enabled",
    powerLimitWatts: decimal(read("power.limit")),
  };
  const sample: GpuSampleValues = {
    uuid,
    utilizationPercent: decimal(read("utilization.gpu")),
    memoryBytesUsed: bytes(read("memory.used")),
    temperatureCelsius: decimal(read("temperature.gpu")),
    powerWatts: decimal(read("power.draw")),
  };
  return {
    gpu: dropAbsent(gpu),
    sample: dropAbsent(sample),
    driverVersion: text(read("driver_version")),
  };
}

/** The lesser of what card and host allow; either may be unreported. */
function lowest(...values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 ? undefined : Math.min(...known);
}

/** True for the ways nvidia-smi says "no value": [N/A], N/A, [Not Supported], [Unknown Error]... */
function isAbsentValue(raw: string): boolean {
  const value = raw.trim();
  return value === "" || value === "N/A" || (value.startsWith("[") && value.endsWith("]"));
}

function text(cell: Cell | undefined): string | undefined {
  return cell === undefined || isAbsentValue(cell.raw) ? undefined : cell.raw.trim();
}

function decimal(cell: Cell | undefined): number | undefined {
  const value = text(cell);
  const match = value === undefined ? null : /^-?\d+(\.\d+)?/.exec(value);
  return match ? Number(match[0]) : undefined;
}

function integer(cell: Cell | undefined): number | undefined {
  const value = decimal(cell);
  return value === undefined ? undefined : Math.trunc(value);
}

/** MiB (from the header or the value itself, as --format=csv prints both) to bytes. */
function bytes(cell: Cell | undefined): bigint | undefined {
  const value = decimal(cell);
  if (value === undefined || cell === undefined) return undefined;
  const unit = cell.unit ?? /[A-Za-z]+$/.exec(cell.raw.trim())?.[0] ?? "MiB";
  const factor =
    unit === "GiB" ? 1024 * MIB_BYTES : unit === "KiB" ? 1024 : unit === "B" ? 1 : MIB_BYTES;
  return BigInt(Math.round(value * factor));
}

/** Removes keys whose value is undefined, so "absent" is absent and not a key holding undefined. */
function dropAbsent<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Reads driver and CUDA versions from `nvidia-smi --version` (or the banner of plain nvidia-smi). */
export function parseNvidiaSmiVersion(output: string): {
  driverVersion?: string;
  cudaVersion?: string;
} {
  const driverVersion =
    /DRIVER version\s*:\s*([\d.]+)/i.exec(output)?.[1] ??
    /Driver Version:\s*([\d.]+)/i.exec(output)?.[1];
  const cudaVersion = /CUDA Version\s*:\s*([\d.]+)/i.exec(output)?.[1];
  return dropAbsent({ driverVersion, cudaVersion });
}

export interface GpuDiscovery {
  rows: NvidiaSmiGpuRow[];
  /** The query fields this driver accepted; sampling reuses them. */
  fields: string[];
  driverVersion?: string;
  cudaVersion?: string;
  /** Why no GPUs were found, for the log; absent when discovery ran. */
  reason?: string;
}

export interface DiscoverOptions {
  timeoutMs?: number;
  binary?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Runs nvidia-smi and parses its cards. A driver that rejects a field loses only that field: the
 * query is retried without it (or without every optional field when the complaint names none).
 */
export async function discoverGpus(
  exec: ExecFn,
  options: DiscoverOptions = {},
): Promise<GpuDiscovery> {
  const run = (args: string[]) =>
    exec(options.binary ?? "nvidia-smi", args, {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  let fields = [...NVIDIA_SMI_QUERY_FIELDS];
  try {
    for (let attempt = 0; attempt <= NVIDIA_SMI_OPTIONAL_FIELDS.length; attempt++) {
      const result = await run([`--query-gpu=${fields.join(",")}`, "--format=csv"]);
      const rejected = rejectedField(result.stdout + result.stderr);
      if (result.exitCode === 0 && rejected === undefined) {
        const rows = parseNvidiaSmiCsv(result.stdout);
        const versions = await readVersions(run);
        return { rows, fields, driverVersion: rows[0]?.driverVersion, ...versions };
      }
      if (rejected === undefined && !/not a valid field/i.test(result.stdout + result.stderr)) {
        return absent(
          `nvidia-smi exited ${result.exitCode}: ${firstLine(result.stderr || result.stdout)}`,
        );
      }
      const next = withoutField(fields, rejected);
      if (next === undefined)
        return absent(`nvidia-smi rejects a required field: ${rejected ?? "unknown"}`);
      fields = next;
    }
    return absent("nvidia-smi kept rejecting query fields");
  } catch (error) {
    return absent(describeFailure(error));
  }
}

/** Drops the rejected optional field, or all optional fields when the driver did not say which. */
function withoutField(fields: string[], rejected: string | undefined): string[] | undefined {
  const optional: readonly string[] = NVIDIA_SMI_OPTIONAL_FIELDS;
  if (rejected !== undefined && fields.includes(rejected)) {
    return optional.includes(rejected) ? fields.filter((field) => field !== rejected) : undefined;
  }
  const core = fields.filter((field) => !optional.includes(field));
  return core.length === fields.length ? undefined : core;
}

/** nvidia-smi says: Field "utilization.gpu" is not a valid field to query. */
function rejectedField(output: string): string | undefined {
  return /Field\s+"([^"]+)"\s+is not a valid field/i.exec(output)?.[1];
}

async function readVersions(
  run: (args: string[]) => Promise<{ exitCode: number; stdout: string }>,
) {
  try {
    const result = await run(["--version"]);
    return result.exitCode === 0 ? parseNvidiaSmiVersion(result.stdout) : {};
  } catch {
    // Versions are informative only; a driver without --version still has GPUs.
    return {};
  }
}

/** Samples the cards with the fields discovery found accepted. */
export async function sampleGpus(
  exec: ExecFn,
  fields: readonly string[],
  options: DiscoverOptions = {},
): Promise<GpuSampleValues[]> {
  const wanted = new Set([
    "uuid",
    "memory.used",
    "temperature.gpu",
    "power.draw",
    "utilization.gpu",
  ]);
  const query = fields.filter((field) => wanted.has(field));
  const result = await exec(
    options.binary ?? "nvidia-smi",
    [`--query-gpu=${query.join(",")}`, "--format=csv"],
    {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    },
  );
  if (result.exitCode !== 0)
    throw new Error(
      `nvidia-smi exited ${result.exitCode}: ${firstLine(result.stderr || result.stdout)}`,
    );
  return parseNvidiaSmiCsv(result.stdout).map((row) => row.sample);
}

function absent(reason: string): GpuDiscovery {
  return { rows: [], fields: [], reason };
}

function describeFailure(error: unknown): string {
  if (error instanceof ExecError && error.code === "ENOENT")
    return "nvidia-smi not found (no NVIDIA driver on this node)";
  return messageOf(error);
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/)[0] ?? "";
}
