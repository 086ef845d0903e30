// nodes.summary and nodes.cards (P9): the light lists the console polls, made from the stored rows
// kept in memory (stored-node-rows.ts) and the registry's live state, without making every node's
// full view first. At 2,000 nodes that view (16,000 card records with their links judged, dates
// formatted) was built for each poll and thrown away, and its garbage was most of the poll's cost.
// What comes from the stored rows alone (a node's cards grouped by model, their memory, degraded
// links; the heatmap's order and fixed columns) is worked out once per read of the rows; a poll
// adds only what is live: state, last seen, readings.
import type { NodeRow } from "@llmgw/db";
import type { FleetCardsView, NodeSummary } from "@llmgw/api";
import type { LivenessPolicy } from "@llmgw/domain";
import { nodeStateOf, pcieLinkView } from "./node-view-parts";
import type { FleetRegistry } from "./registry";
import type { CardRow, NodeRowSet } from "./stored-node-rows";

const MIB = 2 ** 20;

interface NodeCards {
  /** By index. */
  cards: CardRow[];
  gpuGroups: NodeSummary["gpuGroups"];
  gpuMemoryBytesTotal: number;
  pcieDegradedCount: number;
}

/** What the stored rows alone decide, shared by every poll until the rows are read again. */
interface FleetStatics {
  cardsOfNode: Map<string, NodeCards>;
  /** The heatmap's nodes (with cards, by name) and their cards' fixed columns, in its order. */
  heatmap: Pick<FleetCardsView, "nodes" | "cardNames"> & {
    cardRows: CardRow[];
    index: number[];
    nameOfCard: number[];
    memoryMiBTotal: number[];
  };
}

const staticsByRows = new WeakMap<NodeRowSet, FleetStatics>();

function nodeCardsOf(cards: CardRow[]): NodeCards {
  const groups = new Map<string, number>();
  let gpuMemoryBytesTotal = 0;
  let pcieDegradedCount = 0;
  for (const card of cards) {
    groups.set(card.name, (groups.get(card.name) ?? 0) + 1);
    gpuMemoryBytesTotal += card.memoryBytesTotal;
    if (pcieLinkView(card)?.isBelowCapability === true) pcieDegradedCount += 1;
  }
  const gpuGroups = [...groups].map(([name, count]) => ({ name, count }));
  return { cards, gpuGroups, gpuMemoryBytesTotal, pcieDegradedCount };
}

function heatmapOf(nodeRows: NodeRow[], cardsOfNode: Map<string, NodeCards>) {
  const heatmap: FleetStatics["heatmap"] = {
    ...{ nodes: [], cardNames: [], cardRows: [], index: [], nameOfCard: [], memoryMiBTotal: [] },
  };
  const nameIndex = new Map<string, number>();
  const withCards = nodeRows
    .filter((row) => (cardsOfNode.get(row.id)?.cards.length ?? 0) > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const row of withCards) {
    const { cards } = cardsOfNode.get(row.id) ?? { cards: [] };
    heatmap.nodes.push({
      id: row.id,
      name: row.name,
      simulated: row.isSimulated,
      cardCount: cards.length,
    });
    for (const card of cards) {
      let name = nameIndex.get(card.name);
      if (name === undefined) {
        name = heatmap.cardNames.push(card.name) - 1;
        nameIndex.set(card.name, name);
      }
      heatmap.cardRows.push(card);
      heatmap.index.push(card.index);
      heatmap.nameOfCard.push(name);
      heatmap.memoryMiBTotal.push(Math.round(card.memoryBytesTotal / MIB));
    }
  }
  return heatmap;
}

function staticsOf(rows: NodeRowSet): FleetStatics {
  const known = staticsByRows.get(rows);
  if (known) return known;
  const byNode = new Map<string, CardRow[]>();
  for (const card of rows.gpuRows) {
    const cards = byNode.get(card.nodeId);
    if (cards) cards.push(card);
    else byNode.set(card.nodeId, [card]);
  }
  const cardsOfNode = new Map<string, NodeCards>();
  for (const [nodeId, cards] of byNode)
    cardsOfNode.set(nodeId, nodeCardsOf(cards.sort((a, b) => a.index - b.index)));
  const statics = { cardsOfNode, heatmap: heatmapOf(rows.nodeRows, cardsOfNode) };
  staticsByRows.set(rows, statics);
  return statics;
}

const NO_CARDS: NodeCards = {
  cards: [],
  gpuGroups: [],
  gpuMemoryBytesTotal: 0,
  pcieDegradedCount: 0,
};

export interface NodeListsDeps {
  registry: Pick<FleetRegistry, "get" | "facility" | "heard">;
  policy: LivenessPolicy;
  nowMs(): number;
}

/** A summary per node, in the stored order (by name): what the nodes table shows. */
export function nodeSummaries(rows: NodeRowSet, deps: NodeListsDeps): NodeSummary[] {
  const { cardsOfNode } = staticsOf(rows);
  const nowMs = deps.nowMs();
  const { facility } = deps.registry;
  return rows.nodeRows.map((row) => {
    const live = deps.registry.get(row.id);
    const { state, lastSeenMs } = nodeStateOf(row, live, deps.policy, nowMs, deps.registry);
    const bytesFree = live?.heartbeat?.diskBytesFree;
    const cards = cardsOfNode.get(row.id) ?? NO_CARDS;
    // A plain literal: spreads of small literals were most of this loop's time.
    return {
      id: row.id,
      name: row.name,
      state,
      simulated: row.isSimulated,
      cordon: facility.cordonOf(row.id),
      agentVersion: row.agentVersion,
      os: row.host.os,
      arch: row.host.arch,
      labels: facility.labelsOf(row.id, row.labels),
      lastSeenAt: new Date(lastSeenMs).toISOString(),
      cpuCores: row.host.cpuCores,
      memoryBytesTotal: row.memoryBytesTotal,
      disk: {
        bytesTotal: row.diskBytesTotal,
        bytesFree: bytesFree === undefined ? null : Number(bytesFree),
      },
      gpuGroups: cards.gpuGroups,
      gpuMemoryBytesTotal: cards.gpuMemoryBytesTotal,
      pcieDegradedCount: cards.pcieDegradedCount,
    };
  });
}

/** Every card's figures as columns, for the heatmap: fixed ones shared, readings read now. */
export function fleetCards(
  rows: NodeRowSet,
  deps: Pick<NodeListsDeps, "registry">,
): FleetCardsView {
  const { heatmap } = staticsOf(rows);
  const count = heatmap.cardRows.length;
  const memoryMiBUsed = new Array<number | null>(count);
  const utilizationPercent = new Array<number | null>(count);
  const temperatureCelsius = new Array<number | null>(count);
  let at = 0;
  for (const node of heatmap.nodes) {
    const live = deps.registry.get(node.id);
    // Samples from a session that has ended are stale: unknown, as the full list shows them.
    const samples = live?.isConnected ? live.samplesByUuid : undefined;
    for (let card = 0; card < node.cardCount; card += 1, at += 1) {
      const sample = samples?.get(heatmap.cardRows[at]?.uuid ?? "");
      const used = sample?.memoryBytesUsed;
      memoryMiBUsed[at] = used === undefined ? null : Math.round(Number(used) / MIB);
      utilizationPercent[at] = sample?.utilizationPercent ?? null;
      temperatureCelsius[at] = sample?.temperatureCelsius ?? null;
    }
  }
  return {
    nodes: heatmap.nodes,
    cardNames: heatmap.cardNames,
    cards: {
      ...{
        index: heatmap.index,
        nameOfCard: heatmap.nameOfCard,
        memoryMiBTotal: heatmap.memoryMiBTotal,
      },
      ...{ memoryMiBUsed, utilizationPercent, temperatureCelsius },
    },
  };
}

/** What the facility page reads of a node: where it is, its cards and their measured draw. */
export interface FacilityNode {
  name: string;
  labels: Record<string, string>;
  cardCount: number;
  /** The cards' measured draw summed; null when none reported one (or the session closed). */
  powerWatts: number | null;
}

export function facilityNodes(
  rows: NodeRowSet,
  deps: Pick<NodeListsDeps, "registry">,
): FacilityNode[] {
  const { cardsOfNode } = staticsOf(rows);
  const { facility } = deps.registry;
  return rows.nodeRows.map((row) => {
    const { cards } = cardsOfNode.get(row.id) ?? NO_CARDS;
    const live = deps.registry.get(row.id);
    const samples = live?.isConnected ? live.samplesByUuid : undefined;
    let powerWatts: number | null = null;
    for (const card of cards) {
      const watts = samples?.get(card.uuid)?.powerWatts;
      if (watts !== undefined) powerWatts = (powerWatts ?? 0) + watts;
    }
    const labels = facility.labelsOf(row.id, row.labels);
    return { name: row.name, labels, cardCount: cards.length, powerWatts };
  });
}
