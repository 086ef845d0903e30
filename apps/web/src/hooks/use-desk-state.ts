// React state kept on the person's desk (see lib/desk/desk-storage.ts): a table's sort or filter
// starts from what the person left there on this device, and every change is kept.
import { useCallback, useState, type SetStateAction } from "react";
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
