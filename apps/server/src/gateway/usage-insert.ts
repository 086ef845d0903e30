// Writes a batch of usage rows as one statement whose text never changes: the rows travel as one
// JSON parameter that PostgreSQL unpacks (json_to_recordset), instead of an INSERT of 13 parameters
// a row that Drizzle would build and the store would parse again for every batch. PostgreSQL
// (postgres-js) keeps the fixed text prepared on each connection; PGlite parses a few hundred bytes.
// The JSON keys are the rows' own field names (a Date goes as its ISO instant), so a row is written
// as `.values()` wrote it; a key outside USAGE_COLUMNS (an `id`) is not read.
import type { Database, NewUsageRecord } from "@llmgw/db";
import { fields, jsonStatement, names, recordset } from "../json-recordset";

/** Every column a usage row sets, as [field, column, SQL type]; `id` comes from its sequence. */
export const USAGE_COLUMNS = [
  ["keyId", "key_id", "text"],
  ["owner", "owner", "text"],
  ["model", "model", "text"],
  ["endpoint", "endpoint", "text"],
  ["replicaId", "replica_id", "text"],
  ["requestId", "request_id", "text"],
  ["promptTokens", "prompt_tokens", "integer"],
  ["completionTokens", "completion_tokens", "integer"],
  ["latencyMs", "latency_ms", "integer"],
  ["ttftMs", "ttft_ms", "integer"],
  ["status", "status", "integer"],
  ["errorCode", "error_code", "text"],
  ["at", "at", "timestamptz"],
] as const satisfies readonly (readonly [keyof NewUsageRecord, string, string])[];

const INSERT = jsonStatement(
  `INSERT INTO usage_records (${names(USAGE_COLUMNS)}) SELECT ${fields(USAGE_COLUMNS)} FROM ${recordset(USAGE_COLUMNS)}`,
);

export async function insertUsageRecords(
  db: Database,
  rows: readonly NewUsageRecord[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(INSERT(rows));
}
