// The nodes table's filter and order, and the window of it the console asks for (`nodes.page`,
// P9: every node's summary was 822 KiB at 2,000 nodes for a page that draws about 35 rows).
import { z } from "zod";
import { oneLine } from "../text";
import {
  sortInputSchema,
  sortRowsBy,
  windowInputShape,
  windowOf,
  windowSchema,
  type SortState,
} from "../tables/window";
import { nodeSummarySchema, type NodeSummary } from "./summary";

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

/** Cards on the node, all models together. */
export function gpuCount(node: NodeSummary): number {
  return node.gpuGroups.reduce((sum, group) => sum + group.count, 0);
}

const NODE_SORT_VALUES = {
  name: (node: NodeSummary) => node.name,
  state: (node: NodeSummary) => node.state,
  gpus: gpuCount,
  gpuMemory: (node: NodeSummary) => node.gpuMemoryBytesTotal,
  cpuCores: (node: NodeSummary) => node.cpuCores,
  memory: (node: NodeSummary) => node.memoryBytesTotal,
  disk: (node: NodeSummary) => node.disk.bytesFree ?? -1,
  agentVersion: (node: NodeSummary) => node.agentVersion,
  simulated: (node: NodeSummary) => (node.simulated ? 1 : 0),
  warnings: (node: NodeSummary) => nodeWarnings(node).length,
  lastSeen: (node: NodeSummary) => new Date(node.lastSeenAt).getTime(),
} satisfies Record<string, (node: NodeSummary) => string | number>;

export type NodeSortKey = keyof typeof NODE_SORT_VALUES;
const NODE_SORT_KEYS = Object.keys(NODE_SORT_VALUES) as [NodeSortKey, ...NodeSortKey[]];
export const NODE_SORT_DEFAULT: SortState<NodeSortKey> = { key: "name", direction: "asc" };

/** Sorted copy; ties fall back to the name so rows never swap places between refreshes. */
export function sortNodes(
  nodes: readonly NodeSummary[],
  sort: SortState<NodeSortKey>,
): NodeSummary[] {
  return sortRowsBy(nodes, sort, NODE_SORT_VALUES, [(node) => node.name, (node) => node.id]);
}

export function isNodeSortKey(value: unknown): value is NodeSortKey {
  return typeof value === "string" && Object.hasOwn(NODE_SORT_VALUES, value);
}

export const nodesPageInputSchema = z.object({
  /** The table's filter as typed (every word must match); empty for every node. */
  filter: oneLine("filter").max(200, "filter is too long"),
  sort: sortInputSchema(NODE_SORT_KEYS),
  ...windowInputShape,
});
export type NodesPageInput = z.infer<typeof nodesPageInputSchema>;

/** `total`: the nodes the filter let through (the table's rows); `fleet`: the nodes in all. */
export const nodesPageSchema = windowSchema(nodeSummarySchema).extend({
  fleet: z.number().int(),
});
export type NodesPage = z.infer<typeof nodesPageSchema>;

/** The window `input` asks for of `nodes`, filtered and sorted as it says. */
export function nodesPageOf(nodes: readonly NodeSummary[], input: NodesPageInput): NodesPage {
  const matched = nodes.filter((node) => matchesFilter(node, input.filter));
  return {
    fleet: nodes.length,
    ...windowOf(sortNodes(matched, input.sort), input.offset, input.limit),
  };
}
