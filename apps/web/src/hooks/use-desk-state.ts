// React state kept on the person's desk (see lib/desk/desk-storage.ts): a table's sort or filter
// (and which of its columns show) starts from what the person left there on this device, and
// every change is kept.
import { useCallback, useState, type SetStateAction } from "react";
import { isColumnIdList, toggleHiddenColumn } from "../lib/desk/columns";
import { readDesk, writeDesk } from "../lib/desk/desk-storage";

export function useDeskState<T>(
  name: string,
  accept: (value: unknown) => value is T,
  fallback: T,
): [T, (next: SetStateAction<T>) => void] {
  const [value, setValue] = useState<T>(() => readDesk(name, accept, fallback));
  const update = useCallback(
    (next: SetStateAction<T>) =>
      setValue((current) => {
        const value = typeof next === "function" ? (next as (current: T) => T)(current) : next;
        writeDesk(name, value);
        return value;
      }),
    [name],
  );
  return [value, update];
}

export function isString(value: unknown): value is string {
  return typeof value === "string";
}

/** The columns a person hid in one table (`table.<name>.hiddenColumns` on the desk). */
export function useHiddenColumns(table: string): {
  hiddenIds: string[];
  onToggle(id: string): void;
} {
  const [hiddenIds, setHiddenIds] = useDeskState<string[]>(
    `table.${table}.hiddenColumns`,
    isColumnIdList,
    [],
  );
  const onToggle = useCallback(
    (id: string) => setHiddenIds((current) => toggleHiddenColumn(current, id)),
    [setHiddenIds],
  );
  return { hiddenIds, onToggle };
}
