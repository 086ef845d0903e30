// Statements whose text never changes, with their rows travelling column by column: one text
// parameter per column, a PostgreSQL array literal that the database unpacks with `unnest`. For
// tens of thousands of rows this is the cheapest form we measured on both stores: the literal
// names no field per value (a JSON object per row repeats every key) and PostgreSQL parses an
// array far faster than `json_to_recordset` matches keys, so a pass's 20,000 placements are
// written in about a third of the time the JSON record set took. Used by the replicas' placements
// (reconcile/replica-rows.ts, reconcile/replica-shards.ts).
import { sql } from "@llmgw/db";

type Statement = ReturnType<typeof sql>;

/** The columns of an `unnest` statement: [column, SQL type of each element]. */
export type ArrayColumns = ReadonlyArray<readonly [column: string, type: string]>;

/** What a column's element may be: text (quoted), an integer, or null. */
export type ArrayElement = string | number | null;

/**
 * The type a column's array is unpacked as. A `jsonb[]` is unpacked as `text[]` and each value cast
 * on its own: PostgreSQL took 1.2 to 1.8 s to read 20,000 small values as a `jsonb[]`, against
 * 50 to 70 ms as text cast one by one (PostgreSQL 15, on this project's test machine).
 */
const arrayType = (type: string) => (type === "jsonb" ? "text" : type);

/** `unnest($1::text::T1[], …) AS r(c1, …)`: the rows of the statement's parameters, typed. */
export const unnestRows = (columns: ArrayColumns) =>
  `unnest(${columns.map(([, type], at) => `$${at + 1}::text::${arrayType(type)}[]`).join(", ")}) AS r(${columns
    .map(([column]) => column)
    .join(", ")})`;

/** What an `INSERT … SELECT` from `unnestRows` selects: every column, in order, as its type. */
const selectColumns = (columns: ArrayColumns) =>
  columns
    .map(([column, type]) => (arrayType(type) === type ? column : `${column}::${type}`))
    .join(", ");

/** The table's column names, in order: an `INSERT`'s column list. */
const columnNames = (columns: ArrayColumns) => columns.map(([column]) => column).join(", ");

/** `INSERT INTO table (c1, …) SELECT c1, … FROM unnest(…)`: the rows of the parameters, typed. */
export const insertRows = (table: string, columns: ArrayColumns) =>
  `INSERT INTO ${table} (${columnNames(columns)}) SELECT ${selectColumns(columns)} FROM ${unnestRows(columns)}`;

/**
 * One element of an array literal: text in double quotes with `"` and `\` escaped (so commas,
 * braces, spaces and the word NULL stay text), an integer as written, null as NULL.
 */
function element(value: ArrayElement): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`an array column takes integers: ${value}`);
    return String(value);
  }
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
}

/** A PostgreSQL array literal of the values, in order. */
export function arrayLiteral(values: readonly ArrayElement[]): string {
  let text = "{";
  for (let at = 0; at < values.length; at += 1) {
    if (at > 0) text += ",";
    text += element(values[at] ?? null);
  }
  return `${text}}`;
}

/**
 * A statement with parameters `$1` to `$count`, made once; each call binds them to the columns'
 * array literals, in order. Sent as text (`$n::text::T[]`), so neither driver converts them.
 */
export function arrayStatement(
  text: string,
  count: number,
): (columns: readonly (readonly ArrayElement[])[]) => Statement {
  const pieces = text.split(/\$(\d+)/);
  const order = pieces.filter((_, at) => at % 2 === 1).map(Number);
  if (order.length !== count || order.some((number, at) => number !== at + 1))
    throw new Error(`an array statement takes $1 to $${count}, each once and in order: ${text}`);
  const raw = pieces.filter((_, at) => at % 2 === 0).map((piece) => sql.raw(piece));
  return (columns) => {
    if (columns.length !== count)
      throw new Error(`an array statement takes ${count} columns, not ${columns.length}`);
    let statement = sql`${raw[0]}`;
    columns.forEach((values, at) => {
      statement = sql`${statement}${arrayLiteral(values)}${raw[at + 1]}`;
    });
    return statement;
  };
}
