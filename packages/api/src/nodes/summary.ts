// The light forms of the node list the console pages poll (P9): a summary per node for the nodes
// table, and every card's figures as columns for the heatmap. At 2,000 nodes and 16,000 cards the
// full list (`nodes.list`, kept for the CLI) is about 7 MB; these carry only what the pages show.
// The server builds them from its stored rows and live state without making the full list first
// (apps/server/src/fleet/node-lists.ts, tested against the functions here); the console's fixtures
// and the heatmap bench build them from full views with these.
import { z } from "zod";
import { nodeStateSchema, type NodeView } from "./schemas";

/** What the nodes table shows, filters and sorts by: no card records, their figures summed. */
export const nodeSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  state: nodeStateSchema,
  simulated: z.boolean(),
  cordon: z.enum(["cordoned", "draining"]).nullable(),
  agentVersion: z.string(),
  os: z.string(),
  arch: z.string(),
  labels: z.record(z.string(), z.string()),
  /** ISO-8601. */
  lastSeenAt: z.string(),
  cpuCores: z.number().int(),
  memoryBytesTotal: z.number(),
  disk: z.object({ bytesTotal: z.number(), bytesFree: z.number().nullable() }),
  /** Cards grouped by model name in first-seen order, so `8 × H100` reads as one entry. */
  gpuGroups: z.array(z.object({ name: z.string(), count: z.number().int() })),
  gpuMemoryBytesTotal: z.number(),
  /** Cards whose link, as seated, carries less than the card could (the server's judgement). */
  pcieDegradedCount: z.number().int(),
});
export type NodeSummary = z.infer<typeof nodeSummarySchema>;

const MIB = 2 ** 20;

/**
 * Every card of the fleet as parallel columns, nodes with cards sorted by name and their cards by
 * index; card `c` belongs to the node whose cards it falls among (`cardCounts`). Memory is in MiB
 * (whole numbers, about a third of the bytes' digits); readings are null where there is none.
 */
export const fleetCardsSchema = z.object({
  nodes: z.array(
    z.object({ id: z.string(), name: z.string(), simulated: z.boolean(), cardCount: z.number() }),
  ),
  /** Distinct card model names; `nameOfCard` indexes into it. */
  cardNames: z.array(z.string()),
  cards: z.object({
    index: z.array(z.number().int()),
    nameOfCard: z.array(z.number().int()),
    memoryMiBTotal: z.array(z.number()),
    memoryMiBUsed: z.array(z.number().nullable()),
    utilizationPercent: z.array(z.number().nullable()),
    temperatureCelsius: z.array(z.number().nullable()),
  }),
});
export type FleetCardsView = z.infer<typeof fleetCardsSchema>;

export function nodeSummaryOf(node: NodeView): NodeSummary {
  const groups = new Map<string, number>();
  let gpuMemoryBytesTotal = 0;
  let pcieDegradedCount = 0;
  for (const gpu of node.gpus) {
    groups.set(gpu.name, (groups.get(gpu.name) ?? 0) + 1);
    gpuMemoryBytesTotal += gpu.memoryBytesTotal;
    if (gpu.pcieLink?.isBelowCapability === true) pcieDegradedCount += 1;
  }
  return {
    ...{ id: node.id, name: node.name, state: node.state, simulated: node.simulated },
    ...{ cordon: node.cordon, agentVersion: node.agentVersion, os: node.os, arch: node.arch },
    ...{ labels: node.labels, lastSeenAt: node.lastSeenAt, cpuCores: node.cpu.cores },
    memoryBytesTotal: node.memory.bytesTotal,
    disk: { bytesTotal: node.disk.bytesTotal, bytesFree: node.disk.bytesFree },
    gpuGroups: [...groups].map(([name, count]) => ({ name, count })),
    gpuMemoryBytesTotal,
    pcieDegradedCount,
  };
}

function mib(bytes: number | null): number | null {
  return bytes === null ? null : Math.round(bytes / MIB);
}

/** Nodes with cards, sorted by name (stable across refreshes), then their cards by index. */
export function fleetCardsOf(nodes: readonly NodeView[]): FleetCardsView {
  const sorted = nodes
    .filter((node) => node.gpus.length > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const view: FleetCardsView = {
    nodes: [],
    cardNames: [],
    cards: {
      ...{ index: [], nameOfCard: [], memoryMiBTotal: [], memoryMiBUsed: [] },
      ...{ utilizationPercent: [], temperatureCelsius: [] },
    },
  };
  const nameIndex = new Map<string, number>();
  const { cards } = view;
  for (const node of sorted) {
    const gpus = [...node.gpus].sort((a, b) => a.index - b.index);
    view.nodes.push({
      id: node.id,
      name: node.name,
      simulated: node.simulated,
      cardCount: gpus.length,
    });
    for (const gpu of gpus) {
      let name = nameIndex.get(gpu.name);
      if (name === undefined) {
        name = view.cardNames.push(gpu.name) - 1;
        nameIndex.set(gpu.name, name);
      }
      cards.index.push(gpu.index);
      cards.nameOfCard.push(name);
      cards.memoryMiBTotal.push(Math.round(gpu.memoryBytesTotal / MIB));
      cards.memoryMiBUsed.push(mib(gpu.memoryBytesUsed));
      cards.utilizationPercent.push(gpu.utilizationPercent);
      cards.temperatureCelsius.push(gpu.temperatureCelsius);
    }
  }
  return view;
}
