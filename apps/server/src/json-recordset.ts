// Statements whose text never changes, with their rows travelling as one JSON parameter that the
// database unpacks (`json_to_recordset`): whatever a batch's size, the store parses (or keeps
// prepared) one short text, and Drizzle checks one parameter instead of one per value. Used by the
// usage batches (gateway/usage-insert.ts) and the nodes' registrations (fleet/registration-write.ts).
import { sql } from "@llmgw/db";

type Statement = ReturnType<typeof sql>;

/** The columns a statement reads from each JSON row: [JSON field, column, SQL type]. */
type RecordsetColumns = ReadonlyArray<readonly [field: string, column: string, type: string]>;

/** `json_to_recordset($1) AS r(…)`: the rows of the statement's JSON parameter, typed. */
export const recordset = (columns: RecordsetColumns) =>
  `json_to_recordset($1::text::json) AS r(${columns.map(([field, , type]) => `"${field}" ${type}`).join(", ")})`;

/** The JSON fields, quoted, in column order: what an `INSERT … SELECT` selects. */
export const fields = (columns: RecordsetColumns) =>
  columns.map(([field]) => `"${field}"`).join(", ");

/** The table's column names, in order: an `INSERT`'s column list. */
export const names = (columns: RecordsetColumns) => columns.map(([, column]) => column).join(", ");

/**
 * A statement with one `$1`, made once; each call binds `$1` to `value` as JSON text. Sent as text
 * (`$1::text::json` in the statement), so neither driver serializes the JSON a second time.
 */
export function jsonStatement(text: string): (value: unknown) => Statement {
  const at = text.indexOf("$1");
  if (at < 0 || text.indexOf("$1", at + 2) >= 0)
    throw new Error(`a JSON statement takes exactly one $1: ${text}`);
  const head = sql.raw(text.slice(0, at));
  const tail = sql.raw(text.slice(at + 2));
  return (value) => sql`${head}${JSON.stringify(value)}${tail}`;
}
