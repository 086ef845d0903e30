"use client";
// The one table of the console. A table is its columns (a header, how a row renders in it and,
// when it sorts, the key it sorts by) and its rows; the grid owns the markup, the sort buttons with
// aria-sort, row selection and the empty state, so every table reads and behaves alike. A table
// that can hold thousands of rows draws only those near the viewport (`virtualize`).
import {
  Fragment,
  useEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactNode,
  type TdHTMLAttributes,
} from "react";
import { must } from "@llmgw/domain";
import { shownColumns } from "../../lib/desk/columns";
import { ariaSortOf, type SortState } from "../../lib/sort";
import { ColumnChooser, type ColumnChoice } from "./column-chooser";
import { ROW_INDEX_ATTRIBUTE, VirtualBody } from "./virtual-body";

/** Unique among the rows: React's key, and what selection names a row by. */
type RowKey = string;
type DataAttributes = { [name: `data-${string}`]: string | number | boolean | undefined };
type CellAttributes = TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;
export type RowAttributes = HTMLAttributes<HTMLTableRowElement> & DataAttributes;

export interface GridColumn<Row, Key extends string = string> {
  id: string;
  /** The header as shown, already in the page's language. */
  header: string;
  render(row: Row): ReactNode;
  sortKey?: Key;
  isNumeric?: boolean;
  /** Always shown: the column that names a row, or its menu. */
  isFixed?: boolean;
  /** On the header and on every cell of the column. */
  className?: string;
  /** On the header only, where a column sizes itself by its header. */
  headerClassName?: string;
  cellProps?(row: Row): CellAttributes;
}

interface GridSorting<Key extends string> {
  sort: SortState<Key>;
  onSort(key: Key): void;
  /** The sort button's title for a header, in the page's language. */
  titleFor(header: string): string;
}

interface GridSelection {
  selectedKey: RowKey | null;
  onSelect(key: RowKey): void;
  onOpen?(key: RowKey): void;
}

export interface DataGridProps<Row, Key extends string = string> {
  columns: readonly GridColumn<Row, Key>[];
  rows: readonly Row[];
  rowKey(row: Row): RowKey;
  testId: string;
  className?: string;
  rowProps?(row: Row): RowAttributes;
  sorting?: GridSorting<Key>;
  selection?: GridSelection;
  /** The person may hide columns ("Columns" above the table); hidden ones are not drawn. */
  columnChoice?: ColumnChoice;
  /** Rows shown beneath a row, such as its opened details (a `DetailRow` spans `columnCount`). */
  renderAfterRow?(row: Row, columnCount: number): ReactNode;
  /** Shown after the table while it has no rows. */
  empty?: ReactNode;
  /**
   * Draw only the rows near the viewport. The table's parent must be the box that scrolls (give it
   * a bounded height, as `.table-scroll-fill` does); `rowHeightPx` is a first guess at a row's height.
   * With `window`, `rows` are only a window of the table, which the server sorts and filters.
   */
  virtualize?: { rowHeightPx: number; window?: RowWindow };
}

/**
 * A table the server sorts and windows (P9): `rows` are its rows from `offset` on, of `total` in
 * all. The scrollbar spans every row; rows outside the window are drawn as empty rows of the
 * same height until the page has asked for them, which `onRange` (the rows in view) tells it to.
 */
export interface RowWindow {
  total: number;
  offset: number;
  onRange(first: number, last: number): void;
}

/** Keys of placeholder rows: never a row's own key (those are ids and names). */
const PLACEHOLDER_KEY = "\u0000placeholder:";

function classNames(...names: (string | false | undefined)[]): string | undefined {
  return [...new Set(names.filter(Boolean))].join(" ") || undefined;
}

function HeaderCell<Row, Key extends string>({
  column,
  sorting,
}: {
  column: GridColumn<Row, Key>;
  sorting: GridSorting<Key> | undefined;
}) {
  const className = classNames(
    column.className,
    column.headerClassName,
    column.isNumeric && "numeric",
  );
  const sortKey = column.sortKey;
  if (!sorting || sortKey === undefined) return <th className={className}>{column.header}</th>;
  const ariaSort = ariaSortOf(sorting.sort, sortKey);
  return (
    <th className={className} aria-sort={ariaSort}>
      <button
        type="button"
        className="sort-button"
        onClick={() => sorting.onSort(sortKey)}
        title={sorting.titleFor(column.header)}
        data-testid={`sort-${sortKey}`}
      >
        {column.header}
        <span className="sort-mark" aria-hidden="true">
          {ariaSort === "ascending" ? "▲" : ariaSort === "descending" ? "▼" : ""}
        </span>
      </button>
    </th>
  );
}

function selectionProps(
  key: RowKey,
  selection: GridSelection | undefined,
): RowAttributes & { isSelected: boolean } {
  if (!selection) return { isSelected: false };
  const isSelected = key === selection.selectedKey;
  return {
    isSelected,
    "aria-selected": isSelected,
    onClick: () => selection.onSelect(key),
    onDoubleClick: selection.onOpen ? () => selection.onOpen?.(key) : undefined,
  };
}

/** How a virtual body measures a row it draws. */
interface VirtualRow {
  index: number;
  measureRef(element: HTMLTableRowElement | null): void;
}

function GridRow<Row, Key extends string>({
  row,
  rowKey,
  props,
  virtualRow,
}: {
  row: Row;
  rowKey: RowKey;
  props: DataGridProps<Row, Key>;
  virtualRow?: VirtualRow;
}) {
  const selectedRowRef = useRef<HTMLTableRowElement>(null);
  const { isSelected, ...selected } = selectionProps(rowKey, props.selection);
  const own = props.rowProps?.(row) ?? {};
  useEffect(() => {
    // A virtual body scrolls to the selection itself (the row may not be drawn yet).
    if (isSelected && !virtualRow) selectedRowRef.current?.scrollIntoView({ block: "nearest" });
  }, [isSelected, virtualRow]);
  return (
    <tr
      {...own}
      {...selected}
      {...(virtualRow ? { [ROW_INDEX_ATTRIBUTE]: virtualRow.index } : {})}
      ref={virtualRow ? virtualRow.measureRef : isSelected ? selectedRowRef : undefined}
      className={classNames(own.className, isSelected && "selected")}
    >
      {props.columns.map((column) => {
        const cell = column.cellProps?.(row) ?? {};
        return (
          <td
            key={column.id}
            {...cell}
            className={classNames(column.className, column.isNumeric && "numeric", cell.className)}
          >
            {column.render(row)}
          </td>
        );
      })}
    </tr>
  );
}

export function DataGrid<Row, Key extends string = string>(allProps: DataGridProps<Row, Key>) {
  const choice = allProps.columnChoice;
  const props = { ...allProps, columns: shownColumns(allProps.columns, choice?.hiddenIds) };
  // State, not a ref: the virtual body needs the table (its scroll box) as soon as it is mounted.
  const [table, setTable] = useState<HTMLTableElement | null>(null);
  const renderRow = (row: Row, virtualRow?: VirtualRow) => {
    const key = props.rowKey(row);
    return (
      <Fragment key={key}>
        <GridRow row={row} rowKey={key} props={props} virtualRow={virtualRow} />
        {props.renderAfterRow?.(row, props.columns.length)}
      </Fragment>
    );
  };
  const { rows, virtualize, selection } = props;
  const rowWindow = virtualize?.window;
  const offset = rowWindow?.offset ?? 0;
  const rowCount = rowWindow?.total ?? rows.length;
  const rowAt = (index: number): Row | undefined => rows[index - offset];
  return (
    <>
      {choice ? (
        <div className="grid-tools">
          <ColumnChooser columns={allProps.columns} choice={choice} />
        </div>
      ) : null}
      <table
        ref={setTable}
        className={classNames("grid", props.className)}
        data-testid={props.testId}
        data-virtual={virtualize ? "" : undefined}
      >
        <thead>
          <tr>
            {props.columns.map((column) => (
              <HeaderCell key={column.id} column={column} sorting={props.sorting} />
            ))}
          </tr>
        </thead>
        <tbody>
          {virtualize ? (
            <VirtualBody
              table={table}
              count={rowCount}
              rowHeightPx={virtualize.rowHeightPx}
              columnCount={props.columns.length}
              selectedKey={selection?.selectedKey ?? null}
              indexOfKey={(key) => {
                const at = rows.findIndex((row) => props.rowKey(row) === key);
                return at < 0 ? -1 : at + offset;
              }}
              rowKey={(index) => {
                const row = rowAt(index);
                return row === undefined ? `${PLACEHOLDER_KEY}${index}` : props.rowKey(row);
              }}
              renderRow={(index, measureRef) => {
                const row = rowWindow ? rowAt(index) : must(rows[index], "a virtual row");
                return row === undefined ? (
                  <PlaceholderRow
                    key={`${PLACEHOLDER_KEY}${index}`}
                    index={index}
                    heightPx={virtualize.rowHeightPx}
                    columnCount={props.columns.length}
                    measureRef={measureRef}
                  />
                ) : (
                  renderRow(row, { index, measureRef })
                );
              }}
              onRange={rowWindow?.onRange}
            />
          ) : (
            rows.map((row) => renderRow(row))
          )}
        </tbody>
      </table>
      {rowCount === 0 ? props.empty : null}
    </>
  );
}

/** Where a window's row is not fetched yet: an empty row of a row's height, kept in the layout. */
function PlaceholderRow({
  index,
  heightPx,
  columnCount,
  measureRef,
}: {
  index: number;
  heightPx: number;
  columnCount: number;
  measureRef(element: HTMLTableRowElement | null): void;
}) {
  return (
    <tr
      {...{ [ROW_INDEX_ATTRIBUTE]: index }}
      ref={measureRef}
      aria-busy="true"
      className="grid-placeholder"
      data-testid="grid-placeholder-row"
      style={{ height: heightPx }}
    >
      <td colSpan={columnCount} />
    </tr>
  );
}

/** A full-width row beneath its row, for what opens under it (reasons, details). */
export function DetailRow({
  columnCount,
  rowProps,
  children,
}: {
  columnCount: number;
  rowProps?: RowAttributes;
  children: ReactNode;
}) {
  return (
    <tr {...rowProps} className={classNames("detail-row", rowProps?.className)}>
      <td colSpan={columnCount}>{children}</td>
    </tr>
  );
}
