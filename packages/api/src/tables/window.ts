// Tables the console shows a window of (P9): the server sorts and filters a whole-fleet list and
// answers only the rows the page draws, with the count for its header and scrollbar. The sort is
// the one the console's other tables use, shared here so the server orders rows as the page would.
import { z } from "zod";

type SortDirection = "asc" | "desc";

export interface SortState<Key extends string> {
  key: Key;
  direction: SortDirection;
}

// One collator for every sort: `a.localeCompare(b, undefined, { numeric: true })` builds a new
// Intl.Collator on each call, which made sorting 2,000 nodes take about half a second (P9).
const NUMERIC_COLLATOR = new Intl.Collator(undefined, { numeric: true });

/** Text by numeric collation in the runtime's locale, which keeps node-2 before node-10. */
export function compareText(a: string, b: string): number {
  return NUMERIC_COLLATOR.compare(a, b);
}

/** Numbers by value; text by numeric collation. */
function compareValues(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareText(String(a), String(b));
}

/**
 * A sorted copy by the column `sort` names (`values` gives each column's value of a row); ties
 * fall back to `ties`, in order, so rows never swap places between refreshes.
 */
export function sortRowsBy<Row, Key extends string>(
  rows: readonly Row[],
  sort: SortState<Key>,
  values: Record<Key, (row: Row) => string | number>,
  ties: readonly ((row: Row) => string)[],
): Row[] {
  const value = values[sort.key];
  const sign = sort.direction === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const byColumn = sign * compareValues(value(a), value(b));
    if (byColumn !== 0) return byColumn;
    for (const tie of ties) {
      const byTie = compareValues(tie(a), tie(b));
      if (byTie !== 0) return byTie;
    }
    return 0;
  });
}

/** The most rows one window may ask for: a few screenfuls, never the fleet. */
export const TABLE_WINDOW_ROWS_MAX = 500;

/** Which column a window is sorted by (one of `keys`) and which way. */
export function sortInputSchema<Key extends string>(keys: readonly [Key, ...Key[]]) {
  return z.object({ key: z.enum(keys), direction: z.enum(["asc", "desc"]) });
}

/** Where the window starts in the sorted rows and how many rows it holds. */
export const windowInputShape = {
  offset: z
    .number()
    .int("offset must be a whole number")
    .min(0, "offset must not be negative")
    .max(1_000_000),
  limit: z
    .number()
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(TABLE_WINDOW_ROWS_MAX, `limit must be at most ${TABLE_WINDOW_ROWS_MAX}`),
};

/** What a window answers: `total` rows in all (after any filter), its offset, and its rows. */
export function windowSchema<Row extends z.ZodType>(row: Row) {
  return z.object({ total: z.number().int(), offset: z.number().int(), rows: z.array(row) });
}

/** A window's rows from `offset` on, of `total` rows in all (after any filter). */
export function windowOf<Row>(
  sorted: readonly Row[],
  offset: number,
  limit: number,
): { total: number; offset: number; rows: Row[] } {
  return { total: sorted.length, offset, rows: sorted.slice(offset, offset + limit) };
}
