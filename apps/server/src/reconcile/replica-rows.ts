// A replica record as a row of the `replicas` table and back, and the batched upsert the book
// writes placements with.
import type { Database, ReplicaRow } from "@llmgw/db";
import { arrayStatement, insertRows, type ArrayColumns, type ArrayElement } from "../column-arrays";
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

/** A replica's row as a placement writes it: [column, SQL type], in the table's order. */
const REPLICA_COLUMNS = [
  ["id", "text"],
  ["model", "text"],
  ["profile", "text"],
  ["model_revision", "integer"],
  ["node_id", "text"],
  ["gpu_indexes", "jsonb"],
  ["engine", "text"],
  ["phase", "text"],
  ["message", "text"],
  ["host", "text"],
  ["port", "integer"],
  ["created_at", "timestamptz"],
  ["phase_changed_at", "timestamptz"],
  ["last_used_at", "timestamptz"],
] as const satisfies ArrayColumns;

// An upsert of many rows sets each conflicting row from its own new values (`excluded`), the
// multi-row form of `set: toRow(record)`.
const UPSERT = arrayStatement(
  `${insertRows("replicas", REPLICA_COLUMNS)} ` +
    `ON CONFLICT (id) DO UPDATE SET ${REPLICA_COLUMNS.filter(([column]) => column !== "id")
      .map(([column]) => `${column} = excluded.${column}`)
      .join(", ")}`,
  REPLICA_COLUMNS.length,
);

/** The rows of some records, column by column, as they are now (what `toRow` would write). */
export type ReplicaColumns = ArrayElement[][];

/**
 * The records' rows, column by column, taken now: the book writes them later, and a record may
 * change before then. Times go as ISO text; a pass's records share theirs, made once.
 */
export function replicaColumns(records: readonly ReplicaRecord[]): ReplicaColumns {
  const columns: ArrayElement[][] = REPLICA_COLUMNS.map(() => []);
  const iso = isoOnce();
  for (const record of records) {
    const row: ArrayElement[] = [
      record.id,
      record.model,
      record.profile,
      record.modelRevision,
      record.nodeId,
      JSON.stringify(record.gpuIndexes),
      record.engine,
      record.phase,
      record.message,
      record.host,
      record.port,
      iso(record.createdAtMs),
      iso(record.phaseChangedAtMs),
      record.lastUsedAtMs === null ? null : iso(record.lastUsedAtMs),
    ];
    row.forEach((value, at) => columns[at]?.push(value));
  }
  return columns;
}

/** `new Date(ms).toISOString()`, remembering the last answer (a batch's times are mostly one). */
function isoOnce(): (ms: number) => string {
  let lastMs = Number.NaN;
  let last = "";
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      last = new Date(ms).toISOString();
    }
    return last;
  };
}

/**
 * Upserts rows given column by column, one fixed statement with a text parameter per column that
 * the database unpacks with `unnest`: thousands of rows cost fourteen parameters to bind, not
 * fourteen per row, and no key per value as a JSON record set sends.
 */
export async function upsertColumns(
  db: Pick<Database, "execute">,
  columns: ReplicaColumns,
): Promise<void> {
  if ((columns[0]?.length ?? 0) === 0) return;
  await db.execute(UPSERT(columns));
}
