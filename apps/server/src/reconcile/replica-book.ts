// Observed replicas, in memory and written through to the `replicas` table. Agents report phases
// every heartbeat; keeping the book in memory means a report costs a map lookup, and only a
// change costs a write. Writes run one at a time in the order they were made.
import { eq, replicas as replicasTable, type Database, type ReplicaRow } from "@llmgw/db";
import type { ObservedReplica, ReplicaPhaseName } from "@llmgw/domain";

export interface ReplicaRecord extends ObservedReplica {
  engine: string;
  host: string | null;
  port: number | null;
  fetchProgress: number | null;
  phaseChangedAtMs: number;
  lastUsedAtMs: number | null;
  /** Stopped because its node was lost: if the node returns still running it, it is adopted again. */
  isLostStopped: boolean;
  /** When a frame about it last went to its node, so level-triggered resends are paced. */
  lastSentMs: number;
}

const LOST_MESSAGE_PREFIX = "node ";

function fromRow(row: ReplicaRow): ReplicaRecord {
  return {
    id: row.id,
    model: row.model,
    profile: row.profile,
    modelRevision: row.modelRevision,
    nodeId: row.nodeId,
    gpuIndexes: row.gpuIndexes,
    phase: row.phase,
    message: row.message,
    createdAtMs: row.createdAt.getTime(),
    engine: row.engine,
    host: row.host,
    port: row.port,
    fetchProgress: null,
    phaseChangedAtMs: row.phaseChangedAt.getTime(),
    lastUsedAtMs: row.lastUsedAt?.getTime() ?? null,
    isLostStopped:
      row.phase === "stopped" &&
      row.message.startsWith(LOST_MESSAGE_PREFIX) &&
      row.message.includes(" was lost"),
    lastSentMs: 0,
  };
}

function toRow(record: ReplicaRecord) {
  return {
    id: record.id,
    model: record.model,
    profile: record.profile,
    modelRevision: record.modelRevision,
    nodeId: record.nodeId,
    gpuIndexes: [...record.gpuIndexes],
    engine: record.engine,
    phase: record.phase,
    message: record.message,
    host: record.host,
    port: record.port,
    createdAt: new Date(record.createdAtMs),
    phaseChangedAt: new Date(record.phaseChangedAtMs),
    lastUsedAt: record.lastUsedAtMs === null ? null : new Date(record.lastUsedAtMs),
  };
}

export class ReplicaBook {
  private readonly records = new Map<string, ReplicaRecord>();
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Database,
    private readonly log: (line: string) => void,
  ) {}

  static async open(db: Database, log: (line: string) => void): Promise<ReplicaBook> {
    const book = new ReplicaBook(db, log);
    for (const row of await db.select().from(replicasTable)) book.records.set(row.id, fromRow(row));
    return book;
  }

  get(id: string): ReplicaRecord | undefined {
    return this.records.get(id);
  }

  all(): ReplicaRecord[] {
    return [...this.records.values()];
  }

  /** Replicas that hold (or may still hold) resources: everything not stopped. */
  active(): ReplicaRecord[] {
    return this.all().filter((record) => record.phase !== "stopped");
  }

  onNode(nodeId: string): ReplicaRecord[] {
    return this.all().filter((record) => record.nodeId === nodeId);
  }

  insert(record: ReplicaRecord): Promise<void> {
    this.records.set(record.id, record);
    return this.write(`replica ${record.id}`, async () => {
      await this.db
        .insert(replicasTable)
        .values(toRow(record))
        .onConflictDoUpdate({ target: replicasTable.id, set: toRow(record) });
    });
  }

  /** Applies a change and writes it; a phase change moves phaseChangedAt. */
  update(id: string, change: Partial<ReplicaRecord>, nowMs: number): Promise<void> {
    const record = this.records.get(id);
    if (!record) return Promise.resolve();
    if (change.phase !== undefined && change.phase !== record.phase)
      record.phaseChangedAtMs = nowMs;
    Object.assign(record, change);
    const row = toRow(record);
    return this.write(`replica ${id}`, async () => {
      await this.db.update(replicasTable).set(row).where(eq(replicasTable.id, id));
    });
  }

  /** Forgets stopped replicas older than `beforeMs`, so the table does not grow without end. */
  prune(beforeMs: number): Promise<void> {
    const old = this.all().filter((r) => r.phase === "stopped" && r.phaseChangedAtMs < beforeMs);
    for (const record of old) this.records.delete(record.id);
    if (old.length === 0) return Promise.resolve();
    return this.write("stopped replicas", async () => {
      for (const record of old)
        await this.db.delete(replicasTable).where(eq(replicasTable.id, record.id));
    });
  }

  /** Resolves when every write made so far has finished. */
  flush(): Promise<void> {
    return this.queue;
  }

  private write(what: string, work: () => Promise<void>): Promise<void> {
    const run = this.queue
      .then(work)
      .catch((error: unknown) => this.log(`could not save ${what}: ${(error as Error).message}`));
    this.queue = run;
    return run;
  }
}

export function phaseIsActive(phase: ReplicaPhaseName): boolean {
  return phase !== "stopped" && phase !== "failed";
}
