// The fleet as heatmap cells: one per card, in node order, with each metric's reading in a typed
// array (NaN where there is none), so a refresh turns into buckets without building objects.
import type { NodeView } from "@llmgw/api";
import { bucketOf, type HeatmapMetric } from "./colour";

export interface FleetCells {
  nodes: readonly NodeView[];
  /** Cards per node, in node order: the layout's input. */
  cardCounts: number[];
  nodeOfCell: Uint32Array;
  cardOfCell: Uint16Array;
  utilization: Float32Array;
  memory: Float32Array;
  temperature: Float32Array;
}

/** Nodes with cards, sorted by name (stable across refreshes), then their cards by index. */
export function fleetCells(nodes: readonly NodeView[]): FleetCells {
  const sorted = nodes
    .filter((node) => node.gpus.length > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const cardCounts = sorted.map((node) => node.gpus.length);
  const total = cardCounts.reduce((sum, count) => sum + count, 0);
  const cells: FleetCells = {
    nodes: sorted,
    cardCounts,
    nodeOfCell: new Uint32Array(total),
    cardOfCell: new Uint16Array(total),
    utilization: new Float32Array(total),
    memory: new Float32Array(total),
    temperature: new Float32Array(total),
  };
  let cell = 0;
  sorted.forEach((node, nodeIndex) => {
    for (const gpu of node.gpus) {
      cells.nodeOfCell[cell] = nodeIndex;
      cells.cardOfCell[cell] = gpu.index;
      cells.utilization[cell] = gpu.utilizationPercent ?? NaN;
      cells.memory[cell] =
        gpu.memoryBytesUsed == null || gpu.memoryBytesTotal <= 0
          ? NaN
          : (gpu.memoryBytesUsed / gpu.memoryBytesTotal) * 100;
      cells.temperature[cell] = gpu.temperatureCelsius ?? NaN;
      cell += 1;
    }
  });
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
