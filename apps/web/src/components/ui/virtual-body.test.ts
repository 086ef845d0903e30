// @vitest-environment happy-dom
// A virtualised grid of 2,000 rows in a 300 px box: only the rows near the viewport are in the
// DOM, scrolling draws others, and moving the selection with the keyboard (the same hook the
// nodes and replicas pages use) scrolls the selected row into view and draws it.
import { act, createElement, useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useRowKeyboard } from "../../hooks/use-row-keyboard";
import { useTableWindow } from "../../hooks/use-table-window";
import { DataGrid, type GridColumn } from "./data-grid";

interface Item {
  id: string;
  name: string;
}

const ROW_PX = 30;
const BOX_PX = 300;
const ITEMS: Item[] = Array.from({ length: 2000 }, (_, i) => ({ id: `r${i}`, name: `row ${i}` }));
const COLUMNS: GridColumn<Item>[] = [{ id: "name", header: "Name", render: (item) => item.name }];

let root: Root | null = null;
let container: HTMLElement;
let box: HTMLElement;

beforeAll(() => {
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
  // happy-dom does no layout: every table row is ROW_PX tall, and the box BOX_PX.
  Object.defineProperty(HTMLTableRowElement.prototype, "offsetHeight", {
    configurable: true,
    get: () => ROW_PX,
  });
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container.remove();
});

function Harness({ items }: { items: Item[] }) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const rowIds = items.map((item) => item.id);
  useRowKeyboard({ rowIds, selectedId, onSelect: setSelectedId, onOpen: () => undefined });
  return createElement(DataGrid<Item>, {
    columns: COLUMNS,
    rows: items,
    rowKey: (item) => item.id,
    rowProps: (item) => ({ "data-testid": "row", "data-id": item.id }),
    testId: "big-table",
    selection: { selectedKey: selectedId, onSelect: setSelectedId },
    virtualize: { rowHeightPx: ROW_PX },
  });
}

/** Rows `loaded` of a table of ITEMS the server windows; with `follow`, it answers what is asked. */
function WindowHarness({ follow, ranges }: { follow: boolean; ranges: number[][] }) {
  const { range, onRange } = useTableWindow();
  const offset = follow ? range.offset : 0;
  const rows = ITEMS.slice(offset, offset + range.limit);
  return createElement(DataGrid<Item>, {
    columns: COLUMNS,
    rows,
    rowKey: (item) => item.id,
    rowProps: (item) => ({ "data-testid": "row", "data-id": item.id }),
    testId: "big-table",
    virtualize: {
      rowHeightPx: ROW_PX,
      window: {
        total: ITEMS.length,
        offset,
        onRange: (first, last) => {
          ranges.push([first, last]);
          onRange(first, last);
        },
      },
    },
  });
}

async function settle(): Promise<void> {
  // The virtualiser measures in effects and animation frames: let them run.
  for (let i = 0; i < 5; i++)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
}

async function render(
  items: Item[],
  harness: ReturnType<typeof createElement> = createElement(Harness, { items }),
): Promise<void> {
  container = document.createElement("div");
  document.body.append(container);
  box = document.createElement("div");
  box.className = "table-scroll table-scroll-fill";
  Object.defineProperty(box, "clientHeight", { configurable: true, get: () => BOX_PX });
  Object.defineProperty(box, "clientWidth", { configurable: true, get: () => 800 });
  // What a browser would report: the table as tall as all its rows.
  Object.defineProperty(box, "scrollHeight", {
    configurable: true,
    get: () => (items.length + 1) * ROW_PX,
  });
  // A browser fires "scroll" after scrollTo(); happy-dom only moves scrollTop.
  const scrollTo = box.scrollTo.bind(box);
  box.scrollTo = ((options: ScrollToOptions) => {
    scrollTo(options);
    box.dispatchEvent(new Event("scroll"));
  }) as typeof box.scrollTo;
  container.append(box);
  act(() => {
    root = createRoot(box);
    root.render(harness);
  });
  await settle();
}

/** Scrolls the box as a person would, to put row `row` at its top, and lets the table follow. */
async function scrollToRow(row: number): Promise<void> {
  await act(async () => {
    box.scrollTop = row * ROW_PX;
    box.dispatchEvent(new Event("scroll"));
  });
  await settle();
}

function drawnIds(): string[] {
  return [...box.querySelectorAll('[data-testid="row"]')].map(
    (row) => row.getAttribute("data-id") ?? "",
  );
}

function press(key: string, times = 1): void {
  for (let i = 0; i < times; i++)
    act(() => {
      window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    });
}

describe("DataGrid virtualize", () => {
  it("draws only the rows near the viewport, and a spacer stands in for the rest", async () => {
    await render(ITEMS);
    const ids = drawnIds();
    expect(ids[0]).toBe("r0");
    // 10 rows fit the box; a dozen more on each side may be drawn, never thousands.
    expect(ids.length).toBeGreaterThanOrEqual(10);
    expect(ids.length).toBeLessThan(40);
    expect(ids).not.toContain("r1999");
    const spacer = box.querySelector<HTMLElement>("tr[data-spacer]");
    expect(spacer).not.toBeNull();
    // The spacer keeps the table as tall as all its rows, so the scroll bar is right.
    expect(Number.parseFloat(spacer?.style.height ?? "0")).toBe((2000 - ids.length) * ROW_PX);
  });

  it("draws other rows when the box is scrolled", async () => {
    await render(ITEMS);
    await scrollToRow(1000);
    const ids = drawnIds();
    expect(ids).toContain("r1000");
    expect(ids).not.toContain("r0");
    expect(ids.length).toBeLessThan(40);
  });

  it(
    "scrolls the selected row into view when the keyboard moves the selection",
    { timeout: 30_000 },
    async () => {
      await render(ITEMS);
      press("ArrowDown"); // selects r0
      press("PageDown", 20); // 10 rows a press: r200
      await settle();
      const selected = box.querySelector('tr[aria-selected="true"]');
      expect(selected?.getAttribute("data-id")).toBe("r200");
      expect(box.scrollTop).toBeGreaterThan(150 * ROW_PX);
      expect(drawnIds()).not.toContain("r0");
      press("ArrowUp", 3);
      await settle();
      expect(box.querySelector('tr[aria-selected="true"]')?.getAttribute("data-id")).toBe("r197");
    },
  );

  it("draws every row of a short table, with no spacer", async () => {
    await render(ITEMS.slice(0, 5));
    expect(drawnIds()).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    expect(box.querySelector("tr[data-spacer]")).toBeNull();
  });

  it("draws a window's rows where they fall among all the rows, and stand-ins elsewhere", async () => {
    const ranges: number[][] = [];
    await render(ITEMS, createElement(WindowHarness, { follow: false, ranges }));
    expect(drawnIds()[0]).toBe("r0");
    expect(ranges[0]?.[0]).toBe(0);
    await scrollToRow(1000);
    // The window still holds rows 0–199: rows in view are placeholders of a row's height.
    expect(drawnIds()).toEqual([]);
    const placeholders = box.querySelectorAll('[data-testid="grid-placeholder-row"]');
    expect(placeholders.length).toBeGreaterThanOrEqual(10);
    expect(placeholders[0]?.getAttribute("aria-busy")).toBe("true");
    // The scrollbar spans every row; the range in view was told to the page.
    const last = ranges.at(-1) ?? [];
    expect(last[0]).toBeGreaterThan(950);
    expect(last[1]).toBeLessThan(1050);
  });

  it("draws the rows in view once the page has asked for their window", async () => {
    await render(ITEMS, createElement(WindowHarness, { follow: true, ranges: [] }));
    await scrollToRow(1000);
    const ids = drawnIds();
    expect(ids).toContain("r1000");
    expect(ids).not.toContain("r0");
    expect(box.querySelectorAll('[data-testid="grid-placeholder-row"]')).toHaveLength(0);
  });
});
