// Writes a batch of usage rows in one statement. On PGlite a `COPY … FROM` CSV text through its own
// client (pgliteCopyFrom): about 0.7 × the CPU a row of the JSON statement below, which spent about
// half its time unpacking the JSON (docs/benchmarks.md, router, session 14). Elsewhere (PostgreSQL)
// one statement whose text never changes: the rows travel as one JSON parameter that PostgreSQL
// unpacks (json_to_recordset), instead of an INSERT of 13 parameters a row that Drizzle would build
// and the store would parse again for every batch; postgres-js keeps the fixed text prepared on
// each connection. Either way a row is written as `.values()` wrote it, its fields read by their own
// names (a Date as its ISO instant); a field outside USAGE_COLUMNS (an `id`) is not read.
import { pgliteCopyFrom, type Database, type NewUsageRecord } from "@llmgw/db";
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

const COPY_TARGET = `usage_records (${names(USAGE_COLUMNS)})`;

/**
 * A value as a CSV field, read back as the JSON statement reads it: null, undefined and what JSON
 * writes as null (a number that is not finite, an invalid Date) as an unquoted empty field, which
 * COPY reads as NULL; every string quoted (its quotes doubled), so "" stays an empty string and
 * commas, newlines and backslashes are only text.
 */
function csvField(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  return `"${value.replaceAll('"', '""')}"`;
}

/** The rows as CSV, one line each, in USAGE_COLUMNS' order. */
function usageCsv(rows: readonly NewUsageRecord[]): string {
  let csv = "";
  for (const row of rows) {
    let separator = "";
    for (const [field] of USAGE_COLUMNS) {
      csv += separator + csvField(row[field]);
      separator = ",";
    }
    csv += "\n";
  }
  return csv;
}

export async function insertUsageRecords(
  db: Database,
  rows: readonly NewUsageRecord[],
): Promise<void> {
  if (rows.length === 0) return;
  if (await pgliteCopyFrom(db, COPY_TARGET, () => usageCsv(rows))) return;
  await db.execute(INSERT(rows));
}
