// What each replica's engine last said about its requests, as the gateway's load scraper read it.
// The scraper writes through the narrow `LoadSink`; only the autoscaler reads it back, summed per
// model over its ready replicas. A reading that is missing, failed or stale is unknown, never 0:
// an engine that cannot be measured must not look idle, or its model would shrink under load.
import type { AutoscaleLoad } from "@llmgw/domain";

/** A reading older than this is unknown (the scraper reads every few seconds). */
export const LOAD_READING_STALE_MS = 30_000;

export interface LoadReading {
  /** Requests queued in the engine; null when the engine did not say. */
  waiting: number | null;
  /** Requests the engine is generating; null when it did not say. */
  running: number | null;
}

export interface LoadSink {
  /** The replica's engine was read at this time; null: reading it failed. */
  record(replicaId: string, reading: LoadReading | null, atMs: number): void;
}

export class ReplicaLoadBook implements LoadSink {
  private readonly readings = new Map<string, LoadReading & { atMs: number }>();

  record(replicaId: string, reading: LoadReading | null, atMs: number): void {
    if (reading === null) this.readings.delete(replicaId);
    else this.readings.set(replicaId, { ...reading, atMs });
  }

  /** The load of a model's ready replicas: each sum over those that told, null when none did. */
  loadOf(readyIds: readonly string[], nowMs: number): AutoscaleLoad {
    let waiting: number | null = null;
    let running: number | null = null;
    for (const id of readyIds) {
      const reading = this.readings.get(id);
      if (!reading || nowMs - reading.atMs > LOAD_READING_STALE_MS) continue;
      if (reading.waiting !== null) waiting = (waiting ?? 0) + reading.waiting;
      if (reading.running !== null) running = (running ?? 0) + reading.running;
    }
    return { waiting, running, ready: readyIds.length };
  }

  /** Requests the replica's engine is running or holding; null when no fresh reading says. */
  inFlightOf(replicaId: string, nowMs: number): number | null {
    const reading = this.readings.get(replicaId);
    if (!reading || nowMs - reading.atMs > LOAD_READING_STALE_MS) return null;
    if (reading.running === null && reading.waiting === null) return null;
    return (reading.running ?? 0) + (reading.waiting ?? 0);
  }

  /** Drops the readings of replicas that are gone, so the map holds only live ones. */
  keepOnly(liveIds: ReadonlySet<string>): void {
    for (const id of this.readings.keys()) if (!liveIds.has(id)) this.readings.delete(id);
  }
}
