// A few minutes of GPU samples per node, in memory, for the console's charts and for spotting
// idle replicas. Each node keeps a fixed-size ring of heartbeats, so memory stays bounded however
// long the server runs; a restart starts empty. The ring is flat typed arrays (a slot per beat, a
// column per card value) and each card's uuid is stored once per node, not once per sample. A
// column holds its values narrow while each one fits exactly (utilisation and temperature in
// tenths, two bytes; memory in whole MiB, four bytes) and turns into doubles for good at the first
// value that does not, so every value reads back as it came. About 13 KiB for a node of 8 cards
// reporting tenths and memory in whole MiB (as nvidia-smi and the simulated agent report it), 18
// KiB with memory in bytes, where doubles took 32 KiB and an object per sample about 296 KiB (see
// docs/benchmarks.md).
import type { GpuSample } from "@llmgw/proto";

export const GPU_HISTORY_SAMPLES_MAX = 150;
/** Distinct uuids one node's table holds before the ones no slot uses any more are dropped. */
export const GPU_HISTORY_UUIDS_MAX = 256;

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

const orNaN = (value: number | undefined) => (value === undefined ? NaN : value);
const orNull = (value: number) => (Number.isNaN(value) ? null : value);

/** How a column stores its values while they fit: an integer array of `value × scale`. */
interface Narrow {
  make(length: number): Int16Array | Uint32Array;
  scale: number;
  /** The largest stored integer; the smallest is `min`; `missing` marks a value not reported. */
  min: number;
  max: number;
  missing: number;
}

const TENTHS: Narrow = {
  make: (length) => new Int16Array(length),
  scale: 10,
  min: -32_767,
  max: 32_767,
  missing: -32_768,
};
const MIB: Narrow = {
  make: (length) => new Uint32Array(length),
  scale: 2 ** -20,
  min: 0,
  max: 2 ** 32 - 2,
  missing: 2 ** 32 - 1,
};

/**
 * One value per card and slot, NaN for a value not reported. Integers of `value × scale` while
 * every value stored so far reads back identical (an exact whole multiple in range, not -0), then
 * doubles. It never narrows again: the ring's size stays what its values needed.
 */
class Column {
  private narrow: Int16Array | Uint32Array | null;
  private wide: Float64Array | null = null;

  constructor(
    length: number,
    private readonly kind: Narrow,
  ) {
    this.narrow = kind.make(length);
    this.narrow.fill(kind.missing);
  }

  get(at: number): number {
    if (this.narrow === null) return this.wide?.[at] as number;
    const stored = this.narrow[at] as number;
    return stored === this.kind.missing ? NaN : stored / this.kind.scale;
  }

  set(at: number, value: number): void {
    if (this.narrow !== null) {
      if (Number.isNaN(value)) {
        this.narrow[at] = this.kind.missing;
        return;
      }
      const stored = Math.round(value * this.kind.scale);
      if (
        stored >= this.kind.min &&
        stored <= this.kind.max &&
        Object.is(stored / this.kind.scale, value)
      ) {
        this.narrow[at] = stored;
        return;
      }
      this.widen();
    }
    (this.wide as Float64Array)[at] = value;
  }

  get byteLength(): number {
    return (this.narrow ?? this.wide)?.byteLength ?? 0;
  }

  private widen(): void {
    const narrow = this.narrow as Int16Array | Uint32Array;
    const wide = new Float64Array(narrow.length);
    for (let at = 0; at < narrow.length; at += 1) wide[at] = this.get(at);
    this.wide = wide;
    this.narrow = null;
  }
}

class Ring {
  private readonly atMs: Float64Array;
  private readonly cardCount: Uint16Array;
  /** Cards per slot the columns have room for; grows when a beat carries more. */
  private width = 0;
  private card = new Uint16Array(0);
  private utilization = new Column(0, TENTHS);
  private memory = new Column(0, MIB);
  private temperature = new Column(0, TENTHS);
  private uuids: string[] = [];
  private uuidIndex = new Map<string, number>();
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.atMs = new Float64Array(capacity);
    this.cardCount = new Uint16Array(capacity);
  }

  push(atMs: number, samples: readonly GpuSample[]): void {
    if (samples.length > this.width) this.widen(samples.length);
    const slot = this.next;
    // The slot's old uuids are no longer needed by it, so a full table may drop them.
    this.cardCount[slot] = 0;
    this.atMs[slot] = atMs;
    const base = slot * this.width;
    for (let i = 0; i < samples.length; i += 1) {
      const sample = samples[i] as GpuSample;
      this.card[base + i] = this.indexOf(sample.uuid);
      this.utilization.set(base + i, orNaN(sample.utilizationPercent));
      this.memory.set(
        base + i,
        sample.memoryBytesUsed === undefined ? NaN : Number(sample.memoryBytesUsed),
      );
      this.temperature.set(base + i, orNaN(sample.temperatureCelsius));
      this.cardCount[slot] = i + 1;
    }
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.capacity, this.size + 1);
  }

  /** Slots oldest first, at or after `sinceMs`. */
  private *slots(sinceMs: number): Generator<number> {
    const start = (this.next - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i += 1) {
      const slot = (start + i) % this.capacity;
      if ((this.atMs[slot] as number) >= sinceMs) yield slot;
    }
  }

  points(sinceMs: number): HistoryPoint[] {
    const out: HistoryPoint[] = [];
    for (const slot of this.slots(sinceMs)) {
      const cards: CardPoint[] = [];
      for (let i = 0; i < (this.cardCount[slot] as number); i += 1) {
        const at = slot * this.width + i;
        cards.push({
          uuid: this.uuids[this.card[at] as number] as string,
          utilizationPercent: orNull(this.utilization.get(at)),
          memoryBytesUsed: orNull(this.memory.get(at)),
          temperatureCelsius: orNull(this.temperature.get(at)),
        });
      }
      out.push({ atMs: this.atMs[slot] as number, cards });
    }
    return out;
  }

  peakUtilization(uuid: string, sinceMs: number): { percent: number; samples: number } | null {
    const index = this.uuidIndex.get(uuid);
    if (index === undefined) return null;
    let percent = -Infinity;
    let samples = 0;
    for (const slot of this.slots(sinceMs)) {
      for (let i = 0; i < (this.cardCount[slot] as number); i += 1) {
        const at = slot * this.width + i;
        if (this.card[at] !== index) continue;
        const value = this.utilization.get(at);
        if (!Number.isNaN(value)) {
          percent = Math.max(percent, value);
          samples += 1;
        }
        break;
      }
    }
    return samples === 0 ? null : { percent, samples };
  }

  /** How many uuids the node's table holds. */
  get uuidCount(): number {
    return this.uuids.length;
  }

  /** The bytes of the ring's arrays. */
  get byteLength(): number {
    return (
      this.atMs.byteLength +
      this.cardCount.byteLength +
      this.card.byteLength +
      this.columns().reduce((sum, column) => sum + column.byteLength, 0)
    );
  }

  private widen(width: number): void {
    const old = { width: this.width, card: this.card, columns: this.columns() };
    this.width = width;
    this.card = new Uint16Array(this.capacity * width);
    this.utilization = new Column(this.capacity * width, TENTHS);
    this.memory = new Column(this.capacity * width, MIB);
    this.temperature = new Column(this.capacity * width, TENTHS);
    const columns = this.columns();
    for (let slot = 0; slot < this.capacity; slot += 1) {
      for (let i = 0; i < old.width; i += 1) {
        const from = slot * old.width + i;
        const to = slot * width + i;
        this.card[to] = old.card[from] as number;
        columns.forEach((column, c) => column.set(to, old.columns[c]?.get(from) ?? NaN));
      }
    }
  }

  private columns(): Column[] {
    return [this.utilization, this.memory, this.temperature];
  }

  private indexOf(uuid: string): number {
    const known = this.uuidIndex.get(uuid);
    if (known !== undefined) return known;
    if (this.uuids.length >= GPU_HISTORY_UUIDS_MAX) this.dropUnusedUuids();
    this.uuids.push(uuid);
    this.uuidIndex.set(uuid, this.uuids.length - 1);
    return this.uuids.length - 1;
  }

  /** Keeps only the uuids some slot still holds (a node whose cards change keeps a bounded table). */
  private dropUnusedUuids(): void {
    const remap = new Map<number, number>();
    const kept: string[] = [];
    for (let slot = 0; slot < this.capacity; slot += 1) {
      for (let i = 0; i < (this.cardCount[slot] as number); i += 1) {
        const at = slot * this.width + i;
        const old = this.card[at] as number;
        let now = remap.get(old);
        if (now === undefined) {
          now = kept.push(this.uuids[old] as string) - 1;
          remap.set(old, now);
        }
        this.card[at] = now;
      }
    }
    this.uuids = kept;
    this.uuidIndex = new Map(kept.map((uuid, index) => [uuid, index]));
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
    ring.push(atMs, samples);
  }

  /** Oldest first; empty for a node never heard from. */
  points(nodeId: string, sinceMs = 0): HistoryPoint[] {
    return this.rings.get(nodeId)?.points(sinceMs) ?? [];
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
    return this.rings.get(nodeId)?.peakUtilization(uuid, sinceMs) ?? null;
  }

  /** How many card uuids one node's ring remembers (bounded; for tests). */
  uuidCount(nodeId: string): number {
    return this.rings.get(nodeId)?.uuidCount ?? 0;
  }

  /** The bytes of one node's ring arrays (for tests). */
  byteLength(nodeId: string): number {
    return this.rings.get(nodeId)?.byteLength ?? 0;
  }
}
