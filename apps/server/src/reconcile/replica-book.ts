// Observed replicas, in memory and written through to the `replicas` table. Agents report phases
// every heartbeat; keeping the book in memory means a report costs a map lookup, and only a
// change costs a write. Writes run one at a time in the order they were made.
import { messageOf } from "@llmgw/domain";
import { eq, replicas as replicasTable, type Database } from "@llmgw/db";
import type { ObservedReplica, ReconcileAction, ReplicaPhaseName } from "@llmgw/domain";
import {
  insertShardColumns,
  loadShards,
  shardColumns,
  placedShards,
  updateShardRow,
  type ShardRecord,
} from "./replica-shards";
import { nodeIdsOf, RecordIndex } from "./replica-index";
import { fromRow, replicaColumns, toRow, upsertColumns, type ReplicaColumns } from "./replica-rows";

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
  /** Every shard by rank, for a replica spanning nodes; absent for one on a single node. */
  shards?: ShardRecord[];
  /**
   * Where a spanning replica's workers join its leader shard (host:port), as the leader's agent
   * reported it; kept in memory only, since the leader repeats it in every heartbeat.
   */
  leaderAddress?: string | null;
}

/**
 * Told of every change to a record that routing reads (its phase, address, model): the record as
 * it is now, or undefined once the book has forgotten it.
 */
export type ReplicaWatcher = (id: string, record: ReplicaRecord | undefined) => void;

/** What the store holds for a replica just placed, before its node hears of it. */
export function placedRecord(
  action: Extract<ReconcileAction, { kind: "place" }>,
  engine: string,
  nowMs: number,
): ReplicaRecord | undefined {
  const shard = action.shards[0];
  if (!shard) return undefined;
  return {
    id: action.replicaId,
    model: action.model,
    profile: action.profile,
    modelRevision: action.revision,
    nodeId: shard.nodeId,
    gpuIndexes: [...shard.cardIndexes],
    phase: "placing",
    message: "",
    createdAtMs: nowMs,
    engine,
    host: null,
    port: null,
    fetchProgress: null,
    phaseChangedAtMs: nowMs,
    lastUsedAtMs: null,
    isLostStopped: false,
    lastSentMs: 0,
    shards: placedShards(action.shards, nowMs),
    leaderAddress: null,
  };
}

/**
 * Rows per statement: one JSON parameter each, so the bound is the statement's size, not
 * PostgreSQL's 65,535 parameters; a few thousand rows (about a megabyte) per statement keeps
 * memory flat on a pass that places tens of thousands.
 */
const ROWS_PER_STATEMENT = 5_000;

export class ReplicaBook {
  private readonly records = new Map<string, ReplicaRecord>();
  /**
   * The same records by model and by node (every node a shard is on), kept as records come and
   * go, so a request routing to one model or a report from one node reads its own few replicas,
   * never the whole fleet's. A record's model and nodes never change once placed.
   */
  private readonly byModel = new RecordIndex<ReplicaRecord>();
  private readonly byNode = new RecordIndex<ReplicaRecord>();
  private readonly watchers = new Set<ReplicaWatcher>();
  private queue: Promise<void> = Promise.resolve();
  private mayWrite: () => Promise<boolean> = () => Promise.resolve(true);

  private constructor(
    private readonly db: Database,
    private readonly log: (line: string) => void,
  ) {}

  static async open(db: Database, log: (line: string) => void): Promise<ReplicaBook> {
    const book = new ReplicaBook(db, log);
    const shards = await loadShards(db);
    for (const row of await db.select().from(replicasTable))
      book.keep(withShards(fromRow(row), shards));
    return book;
  }

  /**
   * Replaces what is in memory with what the store holds now: a standby follows the leader's
   * writes this way, and a new leader starts from the store, not from its view as a standby. A
   * record kept keeps its object (the gateway holds them) and the later of the two last uses.
   */
  async reload(): Promise<void> {
    await this.flush();
    const rows = await this.db.select().from(replicasTable);
    const shards = await loadShards(this.db);
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.id);
      const next = withShards(fromRow(row), shards);
      const kept = this.records.get(row.id);
      if (!kept) {
        this.keep(next);
        continue;
      }
      const lastUsedAtMs = Math.max(kept.lastUsedAtMs ?? 0, next.lastUsedAtMs ?? 0) || null;
      const leaderAddress = kept.leaderAddress ?? null;
      // Shards read after their replica's row (a standby reading mid-write) arrive on a later
      // reload: the node index follows them. Only then: a standby reloads every record often.
      const shardsArrived = (kept.shards?.length ?? 0) !== (next.shards?.length ?? 0);
      if (shardsArrived) for (const nodeId of nodeIdsOf(kept)) this.byNode.remove(nodeId, kept.id);
      Object.assign(kept, { ...next, lastUsedAtMs, lastSentMs: kept.lastSentMs });
      if (kept.shards) kept.leaderAddress = leaderAddress;
      if (shardsArrived) for (const nodeId of nodeIdsOf(kept)) this.byNode.add(nodeId, kept);
      this.tell(kept.id, kept);
    }
    for (const id of [...this.records.keys()]) if (!seen.has(id)) this.forget(id);
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

  /** Replicas with a shard on the node: its leader shard, or a worker shard of one spanning nodes. */
  onNode(nodeId: string): ReplicaRecord[] {
    return this.byNode.of(nodeId);
  }

  /** The model's replicas, in every phase. */
  ofModel(model: string): ReplicaRecord[] {
    return this.byModel.of(model);
  }

  /**
   * Tells the watcher of every record now, then of each change as it is made (told, not asked:
   * the gateway keeps its per-model endpoints from this instead of filtering the book per
   * request). Answers a function that stops the telling.
   */
  watch(watcher: ReplicaWatcher): () => void {
    for (const record of this.records.values()) watcher(record.id, record);
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private tell(id: string, record: ReplicaRecord | undefined): void {
    for (const watcher of this.watchers) watcher(id, record);
  }

  private keep(record: ReplicaRecord): void {
    const before = this.records.get(record.id);
    if (before && before !== record) this.forget(record.id);
    this.records.set(record.id, record);
    this.byModel.add(record.model, record);
    for (const nodeId of nodeIdsOf(record)) this.byNode.add(nodeId, record);
    this.tell(record.id, record);
  }

  private forget(id: string): void {
    const record = this.records.get(id);
    if (!record) return;
    this.records.delete(id);
    this.byModel.remove(record.model, id);
    for (const nodeId of nodeIdsOf(record)) this.byNode.remove(nodeId, id);
    this.tell(id, undefined);
  }

  insert(record: ReplicaRecord): Promise<void> {
    return this.insertMany([record]);
  }

  /**
   * Records replicas placed in one pass with one write: a few multi-row upserts in one
   * transaction instead of a round trip per replica, so a pass placing thousands of replicas
   * waits for the store once. All or none are saved.
   */
  insertMany(records: readonly ReplicaRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    for (const record of records) this.keep(record);
    // Taken now, as the records are: the write waits its turn, and a record may change meanwhile.
    const batches: ReplicaColumns[] = [];
    for (let at = 0; at < records.length; at += ROWS_PER_STATEMENT)
      batches.push(replicaColumns(records.slice(at, at + ROWS_PER_STATEMENT)));
    const shards = shardColumns(records);
    const what =
      records.length === 1 ? `replica ${records[0]?.id}` : `${records.length} placed replicas`;
    const [only] = batches;
    if (batches.length === 1 && only && shards === undefined)
      return this.write(what, () => upsertColumns(this.db, only));
    return this.write(what, () =>
      this.db.transaction(async (tx) => {
        for (const batch of batches) await upsertColumns(tx, batch);
        if (shards) await insertShardColumns(tx, shards);
      }),
    );
  }

  /** Applies a change and writes it; a phase change moves phaseChangedAt. */
  update(id: string, change: Partial<ReplicaRecord>, nowMs: number): Promise<void> {
    const record = this.records.get(id);
    if (!record) return Promise.resolve();
    if (change.phase !== undefined && change.phase !== record.phase)
      record.phaseChangedAtMs = nowMs;
    Object.assign(record, change);
    this.tell(id, record);
    const row = toRow(record);
    return this.write(`replica ${id}`, async () => {
      await this.db.update(replicasTable).set(row).where(eq(replicasTable.id, id));
    });
  }

  /** Applies a change to one shard of a replica spanning nodes and writes its row. */
  updateShard(
    id: string,
    rank: number,
    change: Partial<Pick<ShardRecord, "phase" | "message">>,
    nowMs: number,
  ): Promise<void> {
    const shard = this.records.get(id)?.shards?.find((s) => s.rank === rank);
    if (!shard) return Promise.resolve();
    if (change.phase !== undefined && change.phase !== shard.phase) shard.phaseChangedAtMs = nowMs;
    Object.assign(shard, change);
    const saved = { ...shard };
    return this.write(`replica ${id} shard ${rank}`, () => updateShardRow(this.db, id, saved));
  }

  /** Forgets stopped replicas older than `beforeMs`, so the table does not grow without end. */
  prune(beforeMs: number): Promise<void> {
    const old = this.all().filter((r) => r.phase === "stopped" && r.phaseChangedAtMs < beforeMs);
    for (const record of old) this.forget(record.id);
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

  /**
   * Asked before each write: a control plane that lost the lease (its process was frozen with
   * writes queued) must not write its stale records over the new leader's.
   */
  guardWrites(mayWrite: () => Promise<boolean>): void {
    this.mayWrite = mayWrite;
  }

  private write(what: string, work: () => Promise<void>): Promise<void> {
    const run = this.queue
      .then(async () => {
        if (await this.mayWrite()) return work();
        this.log(`not saving ${what}: this control plane no longer leads`);
      })
      .catch((error: unknown) => this.log(`could not save ${what}: ${messageOf(error)}`));
    this.queue = run;
    return run;
  }
}

function withShards(record: ReplicaRecord, shards: Map<string, ShardRecord[]>): ReplicaRecord {
  const own = shards.get(record.id);
  return own ? { ...record, shards: own, leaderAddress: null } : record;
}

export function phaseIsActive(phase: ReplicaPhaseName): boolean {
  return phase !== "stopped" && phase !== "failed";
}
