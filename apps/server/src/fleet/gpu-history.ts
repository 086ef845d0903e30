// A few minutes of GPU samples per node, in memory, for the console's charts and for spotting
// idle replicas. Each node keeps a fixed-size ring of heartbeats, so memory stays bounded however
// long the server runs (150 beats × 8 cards × a few numbers per node); a restart starts empty.
import type { GpuSample } from "@llmgw/proto";

export const GPU_HISTORY_SAMPLES_MAX = 150;

interface CardPoint {
  uuid: string;
  utilizationPercent: number | null;
  memoryBytesUsed: number | null;
  temperatureCelsius: number | null;
}

export interface HistoryPoint {
  atMs: number;
  cards: CardPoint[];
}

class Ring {
  private readonly points: (HistoryPoint | undefined)[];
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.points = new Array<HistoryPoint | undefined>(capacity);
  }

  push(point: HistoryPoint): void {
    this.points[this.next] = point;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.capacity, this.size + 1);
  }

  /** Oldest first. */
  toArray(): HistoryPoint[] {
    const start = (this.next - this.size + this.capacity) % this.capacity;
    const ordered: HistoryPoint[] = [];
    for (let i = 0; i < this.size; i += 1) {
      const point = this.points[(start + i) % this.capacity];
      if (point) ordered.push(point);
    }
    return ordered;
  }
}

export class GpuHistory {
  private readonly rings = new Map<string, Ring>();

  constructor(private readonly samplesMax = GPU_HISTORY_SAMPLES_MAX) {}

  record(nodeId: string, atMs: number, samples: readonly GpuSample[]): void {
    if (samples.length === 0) return;
    let ring = this.rings.get(nodeId);
    if (!ring) {
      ring = new Ring(this.samplesMax);
      this.rings.set(nodeId, ring);
    }
    ring.push({
      atMs,
      cards: samples.map((sample) => ({
        uuid: sample.uuid,
        utilizationPercent: sample.utilizationPercent ?? null,
        memoryBytesUsed:
          sample.memoryBytesUsed === undefined ? null : Number(sample.memoryBytesUsed),
        temperatureCelsius: sample.temperatureCelsius ?? null,
      })),
    });
  }

  /** Oldest first; empty for a node never heard from. */
  points(nodeId: string, sinceMs = 0): HistoryPoint[] {
    return (this.rings.get(nodeId)?.toArray() ?? []).filter((point) => point.atMs >= sinceMs);
  }

  /**
   * The highest utilisation one card reported since `sinceMs`, with how many samples that covers;
   * null when the card reported none (unknown is not idle).
   */
  peakUtilization(
    nodeId: string,
    uuid: string,
    sinceMs: number,
  ): { percent: number; samples: number } | null {
    let percent = -Infinity;
    let samples = 0;
    for (const point of this.points(nodeId, sinceMs)) {
      const value = point.cards.find((card) => card.uuid === uuid)?.utilizationPercent;
      if (value == null) continue;
      percent = Math.max(percent, value);
      samples += 1;
    }
    return samples === 0 ? null : { percent, samples };
  }
}
