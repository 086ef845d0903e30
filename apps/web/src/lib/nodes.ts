// Pure helpers for the nodes views: how the table filters and sorts the node summaries
// (`nodes.summary`), how a card's link is judged. Kept out of the components so they can be
// unit-tested without a DOM.
import type { GpuView, NodeSummary } from "@llmgw/api";
import { sortRowsBy, type SortState as GenericSortState } from "./sort";

/**
 * A link is degraded when, as seated, it carries less than the card could: fewer lanes in use, or
 * a slot of an older generation. The server judges it (never by the generation a link idles at).
 */
export function isPcieDegraded(gpu: GpuView): boolean {
  return gpu.pcieLink?.isBelowCapability === true;
}

type NodeWarningKind = "pcie" | "diskLow";
export interface NodeWarning {
  kind: NodeWarningKind;
  /** Cards affected (pcie) or the free share in percent (diskLow). */
  value: number;
}

/** Below this share of free disk, weights for a new replica may not fit. */
const DISK_FREE_WARN_PERCENT = 10;

/** What an operator should look at on this node, most important first. */
export function nodeWarnings(node: NodeSummary): NodeWarning[] {
  const warnings: NodeWarning[] = [];
  if (node.pcieDegradedCount > 0) warnings.push({ kind: "pcie", value: node.pcieDegradedCount });
  if (node.disk.bytesFree != null && node.disk.bytesTotal > 0) {
    const freePercent = (node.disk.bytesFree / node.disk.bytesTotal) * 100;
    if (freePercent < DISK_FREE_WARN_PERCENT)
      warnings.push({ kind: "diskLow", value: freePercent });
  }
  return warnings;
}

export function labelPairs(labels: Record<string, string>): string[] {
  return Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => (value ? `${key}=${value}` : key));
}

/**
 * Every word of the query must appear somewhere in the node's searchable text. Identifiers are
 * matched with locale-independent lowercasing so `gpu=H100` finds the same nodes in every language.
 */
export function matchesFilter(node: NodeSummary, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [
    node.name,
    node.id,
    node.state,
    node.simulated ? "simulated" : "",
    node.agentVersion,
    node.os,
    node.arch,
    ...labelPairs(node.labels),
    ...node.gpuGroups.map((group) => group.name),
    // "warning" finds every node with one; "pcie" or "disklow" a kind.
    ...nodeWarnings(node).map((warning) => `warning ${warning.kind}`),
  ]
    .join(" ")
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export type SortKey =
  | "name"
  | "state"
  | "gpus"
  | "gpuMemory"
  | "cpuCores"
  | "memory"
  | "disk"
  | "agentVersion"
  | "simulated"
  | "warnings"
  | "lastSeen";

export type SortState = GenericSortState<SortKey>;

/** Cards on the node, all models together. */
export function gpuCount(node: NodeSummary): number {
  return node.gpuGroups.reduce((sum, group) => sum + group.count, 0);
}

const SORT_VALUES: Record<SortKey, (node: NodeSummary) => string | number> = {
  name: (node) => node.name,
  state: (node) => node.state,
  gpus: gpuCount,
  gpuMemory: (node) => node.gpuMemoryBytesTotal,
  cpuCores: (node) => node.cpuCores,
  memory: (node) => node.memoryBytesTotal,
  disk: (node) => node.disk.bytesFree ?? -1,
  agentVersion: (node) => node.agentVersion,
  simulated: (node) => (node.simulated ? 1 : 0),
  warnings: (node) => nodeWarnings(node).length,
  lastSeen: (node) => new Date(node.lastSeenAt).getTime(),
};

/** Sorted copy; ties fall back to the name so rows never swap places between refreshes. */
export function sortNodes(nodes: readonly NodeSummary[], sort: SortState): NodeSummary[] {
  return sortRowsBy(nodes, sort, SORT_VALUES, [(node) => node.name, (node) => node.id]);
}

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === "string" && Object.hasOwn(SORT_VALUES, value);
}

/**
 * The operating system as the node reported it, without the "(simulated)" older agents append:
 * the page says simulated with its own badge, in the reader's language.
 */
export function osLabel(os: string): string {
  return os.replace(/\s*\(simulated\)\s*$/i, "");
}
