// Sorting a table by one column, shared by every sortable table: which column and which way, what
// a click on a header does to that, and how the header says it to a screen reader.

// The sort itself is the API's, so the server orders a window of a table as the page would.
import type { SortState } from "@llmgw/api/schemas";

export { compareText, sortRowsBy, type SortState } from "@llmgw/api/schemas";

/** A check for a sort read back from storage: a known column, and a direction. */
export function isSortStateOf<Key extends string>(
  isKey: (value: unknown) => value is Key,
): (value: unknown) => value is SortState<Key> {
  return (value): value is SortState<Key> =>
    typeof value === "object" &&
    value !== null &&
    "key" in value &&
    "direction" in value &&
    isKey(value.key) &&
    (value.direction === "asc" || value.direction === "desc");
}

/** A click on the sorted column turns it around; a click on another sorts by it, ascending. */
export function toggleSort<Key extends string>(current: SortState<Key>, key: Key): SortState<Key> {
  return { key, direction: current.key === key && current.direction === "asc" ? "desc" : "asc" };
}

export function ariaSortOf<Key extends string>(
  sort: SortState<Key>,
  key: Key,
): "ascending" | "descending" | "none" {
  if (sort.key !== key) return "none";
  return sort.direction === "asc" ? "ascending" : "descending";
}
