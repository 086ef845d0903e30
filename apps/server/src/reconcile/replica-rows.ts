// A replica record as a row of the `replicas` table and back, and the batched upsert the book
// writes placements with.
import { replicas as replicasTable, sql, type Database, type ReplicaRow } from "@llmgw/db";
import type { ReplicaRecord } from "./replica-book";

/** How a replica stopped because its node was lost is told apart when read back. */
const LOST_MESSAGE_PREFIX = "node ";

export function fromRow(row: ReplicaRow): ReplicaRecord {
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

export function toRow(record: ReplicaRecord) {
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

type Row = ReturnType<typeof toRow>;

// An upsert of many rows sets each conflicting row from its own new values (`excluded`), the
// multi-row form of `set: toRow(record)`.
const UPSERT_SET_SQL = sql.raw(
  (
    [
      "model",
      "profile",
      "modelRevision",
      "nodeId",
      "gpuIndexes",
      "engine",
      "phase",
      "message",
      "host",
      "port",
      "createdAt",
      "phaseChangedAt",
      "lastUsedAt",
    ] as const satisfies readonly Exclude<keyof Row, "id">[]
  )
    .map((key) => `${replicasTable[key].name} = excluded.${replicasTable[key].name}`)
    .join(", "),
);

/**
 * Upserts rows as one JSON parameter unpacked by the database (`jsonb_to_recordset`): a statement
 * of thousands of rows costs one parameter to bind rather than fourteen per row, which is where a
 * multi-row VALUES spends its time on both PostgreSQL and PGlite.
 */
export async function upsertRows(db: Pick<Database, "execute">, rows: Row[]): Promise<void> {
  const json = JSON.stringify(rows.map(jsonRow));
  await db.execute(sql`
    insert into ${replicasTable} (id, model, profile, model_revision, node_id, gpu_indexes, engine,
      phase, message, host, port, created_at, phase_changed_at, last_used_at)
    select id, model, profile, model_revision, node_id, gpu_indexes, engine, phase, message, host,
      port, created_at, phase_changed_at, last_used_at
    from jsonb_to_recordset(${json}::jsonb) as r(id text, model text, profile text,
      model_revision integer, node_id text, gpu_indexes jsonb, engine text, phase text,
      message text, host text, port integer, created_at timestamptz,
      phase_changed_at timestamptz, last_used_at timestamptz)
    on conflict (id) do update set ${UPSERT_SET_SQL}`);
}

/** A row as JSON for jsonb_to_recordset: column names as the table spells them, times as ISO. */
function jsonRow(row: Row): Record<string, unknown> {
  return {
    id: row.id,
    model: row.model,
    profile: row.profile,
    model_revision: row.modelRevision,
    node_id: row.nodeId,
    gpu_indexes: row.gpuIndexes,
    engine: row.engine,
    phase: row.phase,
    message: row.message,
    host: row.host,
    port: row.port,
    created_at: row.createdAt.toISOString(),
    phase_changed_at: row.phaseChangedAt.toISOString(),
    last_used_at: row.lastUsedAt === null ? null : row.lastUsedAt.toISOString(),
  };
}
