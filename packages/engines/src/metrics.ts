// Reads an engine's Prometheus text into the three numbers the router and autoscaler use. A number
// the engine did not publish stays absent (undefined), never a zero: a zero would read as "idle"
// and attract traffic to an engine we simply cannot measure.
import type { EngineMetricNames } from "./types";

export interface EngineLoad {
  runningRequests?: number;
  waitingRequests?: number;
  /** 0..1 */
  kvCacheUsageRatio?: number;
}

/** Per-model override from the catalog or cluster settings; blank fields mean "not given". */
export interface MetricNamesOverride {
  runningRequests?: string;
  waitingRequests?: string;
  kvCacheUsageRatio?: string;
}

/** Every sample value per metric name, labels dropped; comments and malformed lines skipped. */
export function parsePrometheusText(text: string): Map<string, number[]> {
  const samples = new Map<string, number[]>();
  for (const rawLine of text.split("\n")) {
    const sample = parseSampleLine(rawLine.trim());
    if (sample === undefined) continue;
    const values = samples.get(sample.name);
    if (values) values.push(sample.value);
    else samples.set(sample.name, [sample.value]);
  }
  return samples;
}

function parseSampleLine(line: string): { name: string; value: number } | undefined {
  if (line === "" || line.startsWith("#")) return undefined;
  const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (!nameMatch) return undefined;
  const name = nameMatch[0];
  let rest = line.slice(name.length);
  if (rest.startsWith("{")) {
    const end = labelsEnd(rest);
    if (end === -1) return undefined;
    rest = rest.slice(end + 1);
  }
  const valueText = rest.trim().split(/\s+/)[0];
  if (valueText === undefined || valueText === "") return undefined;
  const value = parsePromNumber(valueText);
  return value === undefined ? undefined : { name, value };
}

/** Index of the `}` closing a label set, skipping braces inside quoted (escaped) label values. */
function labelsEnd(text: string): number {
  let isQuoted = false;
  for (let i = 1; i < text.length; i += 1) {
    const ch = text[i];
    if (isQuoted && ch === "\\") i += 1;
    else if (ch === '"') isQuoted = !isQuoted;
    else if (!isQuoted && ch === "}") return i;
  }
  return -1;
}

function parsePromNumber(text: string): number | undefined {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

/**
 * Counts are summed over label sets (several engine cores or models behind one port); the cache
 * use is the fullest one, because that is the one that will refuse the next long request first.
 */
export function parseEngineMetrics(text: string, names: EngineMetricNames): EngineLoad {
  const samples = parsePrometheusText(text);
  const pick = (candidates: readonly string[]): number[] | undefined =>
    candidates.map((name) => samples.get(name)).find((values) => values !== undefined);
  const load: EngineLoad = {};
  const running = pick(names.runningRequests);
  const waiting = pick(names.waitingRequests);
  const kv = pick(names.kvCacheUsageRatio);
  if (running) load.runningRequests = sum(running);
  if (waiting) load.waitingRequests = sum(waiting);
  if (kv) load.kvCacheUsageRatio = Math.max(...kv);
  return load;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * An override that names its own running-requests metric is a complete statement: the fields it
 * leaves blank stay blank rather than being filled with names that engine cannot have. One that
 * does not only replaces the fields it names.
 */
export function resolveMetricNames(
  defaults: EngineMetricNames,
  override: MetricNamesOverride | undefined,
): EngineMetricNames {
  const given = (name: string | undefined): string[] | undefined =>
    name !== undefined && name.trim() !== "" ? [name.trim()] : undefined;
  if (override === undefined) return defaults;
  const isComplete = given(override.runningRequests) !== undefined;
  const fallback = (field: keyof EngineMetricNames): readonly string[] =>
    isComplete ? [] : defaults[field];
  return {
    runningRequests: given(override.runningRequests) ?? fallback("runningRequests"),
    waitingRequests: given(override.waitingRequests) ?? fallback("waitingRequests"),
    kvCacheUsageRatio: given(override.kvCacheUsageRatio) ?? fallback("kvCacheUsageRatio"),
  };
}
