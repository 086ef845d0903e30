// The shards of replicas that span nodes, in memory on their replica's record and written through
// to `replica_shards` (one row per rank). A replica on one node has no shards here: its record is
// its only shard. Rank 0 is the leader shard, whose node, cards, host and port the record holds.
import type { ObservedShard } from "@llmgw/domain";
import {
  and,
  eq,
  replicaShards as shardsTable,
  type Database,
  type ReplicaShardRow,
} from "@llmgw/db";
import { arrayStatement, insertRows, type ArrayColumns, type ArrayElement } from "../column-arrays";

export interface ShardRecord extends ObservedShard {
  gpuIndexes: number[];
  phaseChangedAtMs: number;
  /** When a frame about this shard last went to its node, so resends are paced. */
  lastSentMs: number;
}

/** What the store holds for the shards of a replica just placed (none for one node). */
export function placedShards(
  shards: readonly { nodeId: string; cardIndexes: readonly number[] }[],
  nowMs: number,
): ShardRecord[] | undefined {
  if (shards.length < 2) return undefined;
  return shards.map((shard, rank) => ({
    rank,
    nodeId: shard.nodeId,
    gpuIndexes: [...shard.cardIndexes],
    phase: "placing",
    message: "",
    phaseChangedAtMs: nowMs,
    lastSentMs: 0,
  }));
}

function fromRow(row: ReplicaShardRow): ShardRecord {
  return {
    rank: row.rank,
    nodeId: row.nodeId,
    gpuIndexes: row.gpuIndexes,
    phase: row.phase,
    message: row.message,
    phaseChangedAtMs: row.phaseChangedAt.getTime(),
    lastSentMs: 0,
  };
}

function toRow(replicaId: string, shard: ShardRecord) {
  return {
    replicaId,
    rank: shard.rank,
    nodeId: shard.nodeId,
    gpuIndexes: [...shard.gpuIndexes],
    phase: shard.phase,
    message: shard.message,
    phaseChangedAt: new Date(shard.phaseChangedAtMs),
  };
}

/** Every stored shard, by replica id and in rank order. */
export async function loadShards(db: Database): Promise<Map<string, ShardRecord[]>> {
  const byReplica = new Map<string, ShardRecord[]>();
  for (const row of await db.select().from(shardsTable)) {
    const list = byReplica.get(row.replicaId) ?? [];
    list.push(fromRow(row));
    byReplica.set(row.replicaId, list);
  }
  for (const list of byReplica.values()) list.sort((a, b) => a.rank - b.rank);
  return byReplica;
}

/** A shard's row as a placement writes it: [column, SQL type], in the table's order. */
const SHARD_COLUMNS = [
  ["replica_id", "text"],
  ["rank", "integer"],
  ["node_id", "text"],
  ["gpu_indexes", "jsonb"],
  ["phase", "text"],
  ["message", "text"],
  ["phase_changed_at", "timestamptz"],
] as const satisfies ArrayColumns;

const INSERT_SHARDS = arrayStatement(
  `${insertRows("replica_shards", SHARD_COLUMNS)} ` + "ON CONFLICT DO NOTHING",
  SHARD_COLUMNS.length,
);

/**
 * The shards of replicas just placed, column by column, taken now (the book writes them later);
 * undefined when none of the replicas spans nodes.
 */
export function shardColumns(
  records: readonly { id: string; shards?: readonly ShardRecord[] }[],
): ArrayElement[][] | undefined {
  const columns: ArrayElement[][] = SHARD_COLUMNS.map(() => []);
  for (const record of records)
    for (const shard of record.shards ?? []) {
      const row: ArrayElement[] = [
        record.id,
        shard.rank,
        shard.nodeId,
        JSON.stringify(shard.gpuIndexes),
        shard.phase,
        shard.message,
        new Date(shard.phaseChangedAtMs).toISOString(),
      ];
      row.forEach((value, at) => columns[at]?.push(value));
    }
  return (columns[0]?.length ?? 0) === 0 ? undefined : columns;
}

/** Writes the shards of replicas just recorded (after their replica rows, which they reference). */
export async function insertShardColumns(
  db: Pick<Database, "execute">,
  columns: ArrayElement[][],
): Promise<void> {
  await db.execute(INSERT_SHARDS(columns));
}

export async function updateShardRow(
  db: Pick<Database, "update">,
  replicaId: string,
  shard: ShardRecord,
): Promise<void> {
  await db
    .update(shardsTable)
    .set(toRow(replicaId, shard))
    .where(and(eq(shardsTable.replicaId, replicaId), eq(shardsTable.rank, shard.rank)));
}
