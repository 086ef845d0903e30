"use client";
// A column that says when something happened: relative to now (it ages with the page's clock),
// with the exact moment in the cell's title, or the column's own words when it never happened.
import type { ReactNode } from "react";
import { formatDateTime, formatRelativeTime } from "../../lib/format";
import type { GridColumn } from "./data-grid";

interface MomentColumnOptions<Row, Key extends string> {
  id: string;
  sortKey?: Key;
  header: string;
  at(row: Row): string | null;
  /** Shown when the moment is absent; only moments that may be absent need it. */
  empty?: ReactNode;
  /** Said after the moment, such as who did it. */
  suffix?(row: Row): ReactNode;
  /** The cell's data-testid, for tests that read the moment. */
  testId?: string;
  nowMs: number;
  lang: string;
}

export function momentColumn<Row, Key extends string = string>(
  options: MomentColumnOptions<Row, Key>,
): GridColumn<Row, Key> {
  const { at, nowMs, lang, suffix } = options;
  return {
    id: options.id,
    sortKey: options.sortKey,
    header: options.header,
    cellProps: (row) => {
      const iso = at(row);
      return {
        title: iso ? formatDateTime(iso, lang) : undefined,
        "data-testid": options.testId,
      };
    },
    render: (row) => {
      const iso = at(row);
      if (!iso) return options.empty ?? null;
      const relative = formatRelativeTime(iso, nowMs, lang);
      const after = suffix?.(row);
      return after ? (
        <>
          {relative} {after}
        </>
      ) : (
        relative
      );
    },
  };
}
