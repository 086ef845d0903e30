// Whether a replica's cards did nothing useful over a window: every card of every shard (a replica
// spanning nodes is idle only when all its nodes are) under the threshold, each with enough samples
// that a replica just started is not called idle.
import type { ReplicaRecord } from "./replica-book";

/** What the GPU history saw of one card: its busiest sample in the window, and how many there were. */
export interface CardPeak {
  percent: number;
  samples: number;
}

export interface IdleRule {
  /** A card under this share of busy time for the whole window is doing nothing useful. */
  thresholdPercent: number;
  minSamples: number;
}

/** Where each part of a replica runs: its shards, or the replica itself on one node. */
function partsOf(
  record: ReplicaRecord,
): readonly { nodeId: string; gpuIndexes: readonly number[] }[] {
  return record.shards && record.shards.length > 0 ? record.shards : [record];
}

/**
 * The busiest card's peak when every card is idle; null when any card was busy, could not be
 * measured (a node away, too few samples), or the replica holds no card at all.
 */
export function idlePeak(
  record: ReplicaRecord,
  peakOf: (nodeId: string, cardIndex: number) => CardPeak | null,
  rule: IdleRule,
): number | null {
  let peak = 0;
  let cards = 0;
  for (const part of partsOf(record))
    for (const index of part.gpuIndexes) {
      const seen = peakOf(part.nodeId, index);
      if (!seen || seen.samples < rule.minSamples || seen.percent >= rule.thresholdPercent)
        return null;
      peak = Math.max(peak, seen.percent);
      cards += 1;
    }
  return cards === 0 ? null : peak;
}
