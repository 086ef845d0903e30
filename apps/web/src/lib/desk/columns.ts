// Which columns of a table a person hid, kept on their desk per table. The hidden ones are kept
// (not the shown), so a column a newer console adds shows until it is hidden in turn; a column
// that must stay (a row's name, its menu) cannot be hidden, whatever an older desk says.

export function isColumnIdList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((id) => typeof id === "string");
}

/** Hides a shown column or shows a hidden one. */
export function toggleHiddenColumn(hiddenIds: readonly string[], id: string): string[] {
  return hiddenIds.includes(id) ? hiddenIds.filter((hidden) => hidden !== id) : [...hiddenIds, id];
}

/** The columns to draw, in their order: all but the hidden ones that may be hidden. */
export function shownColumns<Column extends { id: string; isFixed?: boolean }>(
  columns: readonly Column[],
  hiddenIds: readonly string[] | undefined,
): Column[] {
  if (!hiddenIds || hiddenIds.length === 0) return [...columns];
  return columns.filter((column) => column.isFixed || !hiddenIds.includes(column.id));
}
