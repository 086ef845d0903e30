// The fleet as heatmap cells: one per card, in the order `nodes.cards` gives them (nodes by name,
// their cards by index), with each metric's reading in a typed array (NaN where there is none), so
// a refresh turns into buckets without building objects.
import type { FleetCardsView } from "@llmgw/api";
import { bucketOf, type HeatmapMetric } from "./colour";

const MIB = 2 ** 20;

export interface FleetCells {
  nodes: FleetCardsView["nodes"];
  cardNames: readonly string[];
  /** Cards per node, in node order: the layout's input. */
  cardCounts: number[];
  nodeOfCell: Uint32Array;
  cardOfCell: Uint16Array;
  nameOfCell: Uint16Array;
  memoryBytesTotal: Float64Array;
  /** NaN where the card reported none. */
  memoryBytesUsed: Float64Array;
  utilization: Float32Array;
  memory: Float32Array;
  temperature: Float32Array;
}

const orNaN = (value: number | null | undefined): number => value ?? NaN;

/** Typed columns over the server's; nodes without cards never reach here. */
export function fleetCells(view: FleetCardsView): FleetCells {
  const cardCounts = view.nodes.map((node) => node.cardCount);
  const { cards } = view;
  const total = cards.index.length;
  const cells: FleetCells = {
    ...{ nodes: view.nodes, cardNames: view.cardNames, cardCounts },
    nodeOfCell: new Uint32Array(total),
    cardOfCell: Uint16Array.from(cards.index),
    nameOfCell: Uint16Array.from(cards.nameOfCard),
    memoryBytesTotal: Float64Array.from(cards.memoryMiBTotal, (mib) => mib * MIB),
    memoryBytesUsed: Float64Array.from(cards.memoryMiBUsed, (mib) => orNaN(mib) * MIB),
    utilization: Float32Array.from(cards.utilizationPercent, orNaN),
    memory: new Float32Array(total),
    temperature: Float32Array.from(cards.temperatureCelsius, orNaN),
  };
  let cell = 0;
  cardCounts.forEach((count, nodeIndex) => {
    cells.nodeOfCell.fill(nodeIndex, cell, cell + count);
    cell += count;
  });
  for (let c = 0; c < total; c++) {
    const totalBytes = cells.memoryBytesTotal[c] ?? 0;
    cells.memory[c] = totalBytes > 0 ? ((cells.memoryBytesUsed[c] ?? NaN) / totalBytes) * 100 : NaN;
  }
  return cells;
}

/** Same nodes with the same card counts in the same order: the layout can stay. */
export function layoutKey(cells: FleetCells): string {
  return cells.nodes.map((node, i) => `${node.id}:${cells.cardCounts[i]}`).join(",");
}

export function bucketsFor(
  values: Float32Array,
  metric: HeatmapMetric,
  into?: Uint8Array,
): Uint8Array {
  const buckets = into && into.length === values.length ? into : new Uint8Array(values.length);
  for (let cell = 0; cell < values.length; cell++) buckets[cell] = bucketOf(metric, values[cell]);
  return buckets;
}

export function valuesOf(cells: FleetCells, metric: HeatmapMetric): Float32Array {
  return metric === "utilization"
    ? cells.utilization
    : metric === "memory"
      ? cells.memory
      : cells.temperature;
}
