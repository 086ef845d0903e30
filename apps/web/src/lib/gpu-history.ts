// Turns a node's sample history into rows recharts can draw: one row per heartbeat, one column
// per card (`card0`, `card1`, …). Memory is charted as a share of each card's own memory, so
// cards of different sizes share an axis.
import type { GpuHistoryView } from "@llmgw/api";
import { must } from "@llmgw/domain";

export const CHART_METRICS = ["utilization", "memory", "temperature"] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];

export type ChartRow = { atMs: number } & Record<string, number | null>;

export function cardKey(index: number): string {
  return `card${index}`;
}

export function chartRows(
  history: GpuHistoryView,
  metric: ChartMetric,
  memoryBytesTotalByIndex: ReadonlyMap<number, number>,
): ChartRow[] {
  return history.samples.map((sample) => {
    const row: ChartRow = { atMs: sample.atMs };
    for (const gpu of sample.gpus) {
      row[cardKey(gpu.index)] = valueOf(gpu, metric, memoryBytesTotalByIndex.get(gpu.index));
    }
    return row;
  });
}

function valueOf(
  gpu: GpuHistoryView["samples"][number]["gpus"][number],
  metric: ChartMetric,
  memoryBytesTotal: number | undefined,
): number | null {
  if (metric === "utilization") return gpu.utilizationPercent;
  if (metric === "temperature") return gpu.temperatureCelsius;
  if (gpu.memoryBytesUsed == null || !memoryBytesTotal) return null;
  return Math.round((gpu.memoryBytesUsed / memoryBytesTotal) * 1000) / 10;
}

/** Distinct line colours for up to eight cards, repeating after that. */
const CARD_COLOURS = [
  "#4c9aff",
  "#f0883e",
  "#3fb950",
  "#db61a2",
  "#d29922",
  "#a371f7",
  "#39c5cf",
  "#f85149",
];

export function cardColour(index: number): string {
  return must(CARD_COLOURS[index % CARD_COLOURS.length], `colour of card ${index}`);
}
