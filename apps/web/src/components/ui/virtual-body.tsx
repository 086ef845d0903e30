"use client";
// A table body that draws only the rows near the viewport (P9: 2,000 nodes, 4,000 replicas). The
// table's parent is the scroll box; rows above and below what is drawn are stood in for by one
// spacer row each, so the table keeps its columns, sticky header and natural row heights. Rows are
// measured as they are drawn (with the detail rows drawn beneath them), and moving the selection
// scrolls the selected row into view even when it is not drawn yet.
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from "react";

/** How the rows a virtual body draws are measured: the row and the detail rows beneath it. */
export const ROW_INDEX_ATTRIBUTE = "data-row-index";

interface VirtualBodyProps {
  /** The table, once mounted (its parent is the scroll box). */
  table: HTMLTableElement | null;
  count: number;
  /** A guess at one row's height; rows are measured once drawn. */
  rowHeightPx: number;
  columnCount: number;
  /** The selected row's key: when it changes, that row is scrolled into view. */
  selectedKey: string | null;
  /** The index of the row with this key, or -1. */
  indexOfKey(key: string): number;
  rowKey(index: number): string;
  /** Renders row `index`; its first <tr> must carry `ref` and ROW_INDEX_ATTRIBUTE={index}. */
  renderRow(index: number, ref: (element: HTMLTableRowElement | null) => void): ReactNode;
  /** Told the first and last index drawn (overscan included) whenever they change. */
  onRange?(first: number, last: number): void;
}

/** Before the box is measured (server rendering, the first frame): a screenful of rows. */
const INITIAL_RECT = { width: 1440, height: 1200 };
/** Rows drawn beyond the viewport on each side, so a quick scroll shows no blank. */
const OVERSCAN = 12;

/** A row's height with the detail rows that follow it (up to the next row or spacer). */
function measureRowGroup(element: Element): number {
  let height = (element as HTMLElement).offsetHeight;
  for (let next = element.nextElementSibling; next; next = next.nextElementSibling) {
    if (next.hasAttribute(ROW_INDEX_ATTRIBUTE) || next.hasAttribute("data-spacer")) break;
    height += (next as HTMLElement).offsetHeight;
  }
  return height;
}

/** Where the body starts inside the scroll box, and how tall the sticky header is. */
function useBodyOffsets(table: HTMLTableElement | null) {
  const [offsets, setOffsets] = useState({ bodyTop: 0, headerHeight: 0 });
  useLayoutEffect(() => {
    const scroller = table?.parentElement;
    const body = table?.tBodies[0];
    if (!table || !scroller || !body) return;
    const bodyTop =
      body.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    const headerHeight = table.tHead?.offsetHeight ?? 0;
    setOffsets((old) =>
      old.bodyTop === bodyTop && old.headerHeight === headerHeight
        ? old
        : { bodyTop, headerHeight },
    );
  }, [table]);
  return offsets;
}

function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}

function Spacer({ height, columnCount }: { height: number; columnCount: number }) {
  if (height <= 0) return null;
  return (
    <tr data-spacer="" aria-hidden="true" className="grid-spacer" style={{ height }}>
      <td colSpan={columnCount} />
    </tr>
  );
}

export function VirtualBody(props: VirtualBodyProps) {
  const { table, count, selectedKey } = props;
  const offsets = useBodyOffsets(table);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => table?.parentElement ?? null,
    estimateSize: () => props.rowHeightPx,
    getItemKey: props.rowKey,
    measureElement: measureRowGroup,
    indexAttribute: ROW_INDEX_ATTRIBUTE,
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
    scrollMargin: offsets.bodyTop,
    // The sticky header covers the top of the box: a row scrolled to is placed below it.
    scrollPaddingStart: offsets.headerHeight,
  });
  const indexOfKey = useLatest(props.indexOfKey);
  useEffect(() => {
    const index = selectedKey === null ? -1 : indexOfKey.current(selectedKey);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: "auto" });
    // Only a new selection scrolls: a refresh or re-sort under it leaves the view where it is.
  }, [selectedKey, virtualizer, indexOfKey]);

  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items.at(-1);
  const onRange = useLatest(props.onRange);
  const firstIndex = first?.index ?? 0;
  const lastIndex = last?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= firstIndex) onRange.current?.(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, onRange]);
  const before = first ? first.start - offsets.bodyTop : 0;
  const after = last ? virtualizer.getTotalSize() - (last.end - offsets.bodyTop) : 0;
  return (
    <>
      <Spacer height={before} columnCount={props.columnCount} />
      {items.map((item) => props.renderRow(item.index, virtualizer.measureElement))}
      <Spacer height={after} columnCount={props.columnCount} />
    </>
  );
}
