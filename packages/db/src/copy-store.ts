// Copies every row of one store into another, empty one (`llmgw server migrate-store` moves a
// PGlite store to PostgreSQL with it). The tables come from the schema's exports, so a table added
// to the schema is copied without anyone listing it; they are copied parents first (by their
// foreign keys), in one transaction on the target, and serial sequences are moved past the copied
// ids so the next insert does not collide.
import { getTableColumns, getTableName, gt, is, sql, type SQL } from "drizzle-orm";
import { getTableConfig, PgTable, type PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "./client";
import * as schema from "./schema/index";

/** Rows read from the source per query; a page is inserted in chunks under the parameter limit. */
const PAGE_ROWS = 1_000;
/** PostgreSQL takes at most 65535 parameters in one statement. */
const PARAMETERS_MAX = 60_000;

export class StoreCopyError extends Error {
  override readonly name = "StoreCopyError";
}

export interface CopiedTable {
  name: string;
  rows: number;
}

/** Every table the schema exports, each after the tables its foreign keys point at. */
export function storeTables(): PgTable[] {
  const exports: unknown[] = Object.values(schema);
  const tables = exports.filter((value): value is PgTable => is(value, PgTable));
  const ordered: PgTable[] = [];
  const visiting = new Set<PgTable>();
  const visit = (table: PgTable) => {
    if (ordered.includes(table)) return;
    if (visiting.has(table))
      throw new StoreCopyError(`the foreign keys of ${getTableName(table)} form a cycle`);
    visiting.add(table);
    for (const parent of parentsOf(table)) visit(parent);
    visiting.delete(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

function parentsOf(table: PgTable): PgTable[] {
  const parents = getTableConfig(table).foreignKeys.map((key) => key.reference().foreignTable);
  // Rows of a table that points at itself would have to be copied parents first within it.
  if (parents.includes(table))
    throw new StoreCopyError(
      `${getTableName(table)} references itself; copying it needs its rows ordered, which copyStore does not do`,
    );
  return parents;
}

/** Tables of the target that already hold rows, e.g. `users (3)`; empty when none do. */
export async function tablesWithRows(db: Database): Promise<string[]> {
  const found: string[] = [];
  for (const table of storeTables()) {
    const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(table);
    if (row && row.count > 0) found.push(`${getTableName(table)} (${row.count})`);
  }
  return found;
}

/** Copies every row of source into target, which must hold none; all or nothing. */
export async function copyStore(source: Database, target: Database): Promise<CopiedTable[]> {
  const tables = storeTables();
  return target.transaction(async (tx) => {
    const occupied = await tablesWithRows(tx);
    if (occupied.length > 0)
      throw new StoreCopyError(`the target already holds llmgw rows: ${occupied.join(", ")}`);
    const copied: CopiedTable[] = [];
    for (const table of tables) {
      copied.push({ name: getTableName(table), rows: await copyTable(source, tx, table) });
    }
    await moveSequencesPastIds(tx);
    return copied;
  });
}

type Writer = Pick<Database, "insert" | "execute">;

async function copyTable(source: Database, target: Writer, table: PgTable): Promise<number> {
  const order = orderColumns(table);
  const columnCount = getTableConfig(table).columns.length;
  const chunkRows = Math.max(1, Math.floor(PARAMETERS_MAX / columnCount));
  // A single-column key pages by "after the last key" (every page costs the same); a composite
  // key (the small link tables) pages by offset.
  const key = order.length === 1 ? keyOf(table, order[0]) : null;
  let total = 0;
  let after: unknown = undefined;
  for (;;) {
    const query = source.select().from(table);
    const page = await (key && after !== undefined ? query.where(gt(key.column, after)) : query)
      .orderBy(...order)
      .limit(PAGE_ROWS)
      .offset(key ? 0 : total);
    for (let start = 0; start < page.length; start += chunkRows)
      await target.insert(table).values(page.slice(start, start + chunkRows));
    total += page.length;
    if (page.length < PAGE_ROWS) return total;
    if (key) after = (page[page.length - 1] as Record<string, unknown>)[key.property];
  }
}

/** The row property (the schema's name for it) that carries a column. */
function keyOf(table: PgTable, column: PgColumn | undefined) {
  const entry = Object.entries(getTableColumns(table)).find(([, each]) => each === column);
  return entry && column ? { property: entry[0], column } : null;
}

/** A stable order for paging: the primary key, else every column. */
function orderColumns(table: PgTable): PgColumn[] {
  const config = getTableConfig(table);
  const single = config.columns.filter((column) => column.primary);
  if (single.length > 0) return single;
  const composite = config.primaryKeys[0]?.columns;
  return composite && composite.length > 0 ? composite : config.columns;
}

/** `bigserial` ids were copied as they were; the next one must come after the largest. */
async function moveSequencesPastIds(db: Pick<Database, "execute">): Promise<void> {
  const serials = rowsOf<{ table_name: string; column_name: string; sequence: string | null }>(
    await db.execute(sql`
      select table_name, column_name,
             pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
      from information_schema.columns
      where table_schema = current_schema() and column_default like 'nextval(%'`),
  );
  for (const serial of serials) {
    if (!serial.sequence) continue;
    const column = sql.identifier(serial.column_name);
    const table = sql.identifier(serial.table_name);
    const next: SQL = sql`coalesce((select max(${column}) from ${table}), 0) + 1`;
    await db.execute(sql`select setval(${serial.sequence}::regclass, ${next}, false)`);
  }
}

/** postgres-js answers rows as an array, PGlite as `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows: T[] }).rows;
}
