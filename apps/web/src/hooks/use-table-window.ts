// The window of a server-sorted table the page asks for, following the rows the table draws.
import { useCallback, useState } from "react";
import { FIRST_TABLE_WINDOW, tableWindowFor, type TableWindow } from "../lib/table-window";

export function useTableWindow(): {
  range: TableWindow;
  onRange(first: number, last: number): void;
} {
  const [range, setRange] = useState(FIRST_TABLE_WINDOW);
  const onRange = useCallback((first: number, last: number) => {
    const next = tableWindowFor(first, last);
    setRange((current) =>
      current.offset === next.offset && current.limit === next.limit ? current : next,
    );
  }, []);
  return { range, onRange };
}
