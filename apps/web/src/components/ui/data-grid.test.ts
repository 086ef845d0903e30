// @vitest-environment happy-dom
// The grid rendered into a DOM and clicked, as a browser would: headers, aria-sort, sort buttons,
// row keys and attributes, selection and the empty state.
import { act, createElement, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DataGrid, DetailRow, type DataGridProps, type GridColumn } from "./data-grid";

interface Fruit {
  id: string;
  name: string;
  weightGrams: number;
}

const FRUITS: Fruit[] = [
  { id: "a", name: "apple", weightGrams: 180 },
  { id: "b", name: "banana", weightGrams: 120 },
];

const COLUMNS: GridColumn<Fruit, "name" | "weight">[] = [
  { id: "name", header: "Name", sortKey: "name", render: (fruit) => fruit.name },
  {
    id: "weight",
    header: "Weight",
    sortKey: "weight",
    isNumeric: true,
    render: (fruit) => String(fruit.weightGrams),
    cellProps: (fruit) => ({ "data-testid": "weight", title: `${fruit.weightGrams} g` }),
  },
  { id: "note", header: "Note", render: () => "-" },
];

let root: Root | null = null;
let container: HTMLElement;

beforeAll(() => {
  // React warns unless it knows updates are wrapped in act().
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container.remove();
});

function render(props: Partial<DataGridProps<Fruit, "name" | "weight">>): HTMLElement {
  container = document.createElement("div");
  document.body.append(container);
  const element: ReactNode = createElement(DataGrid<Fruit, "name" | "weight">, {
    columns: COLUMNS,
    rows: FRUITS,
    rowKey: (fruit) => fruit.id,
    testId: "fruit-table",
    ...props,
  });
  act(() => {
    root = createRoot(container);
    root.render(element);
  });
  return container;
}

function headers(host: HTMLElement): string[] {
  return [...host.querySelectorAll("th")].map((th) => th.textContent ?? "");
}

describe("DataGrid", () => {
  it("renders the headers, one row per item with its own attributes, and the cells", () => {
    const host = render({ rowProps: (fruit) => ({ "data-testid": "row", "data-id": fruit.id }) });
    expect(host.querySelector("table")?.dataset.testid).toBe("fruit-table");
    expect(headers(host)).toEqual(["Name", "Weight", "Note"]);
    const rows = [...host.querySelectorAll<HTMLElement>('[data-testid="row"]')];
    expect(rows.map((row) => row.dataset.id)).toEqual(["a", "b"]);
    expect(rows[1]?.textContent).toBe("banana120-");
    const weight = host.querySelector<HTMLElement>('[data-testid="weight"]');
    expect(weight?.title).toBe("180 g");
    expect(weight?.className).toBe("numeric");
  });

  it("leaves headers plain when the table does not sort", () => {
    const host = render({});
    expect(host.querySelectorAll("button")).toHaveLength(0);
    expect(host.querySelector("th")?.hasAttribute("aria-sort")).toBe(false);
  });

  it("marks the sorted column with aria-sort and sorts by the clicked header", () => {
    const onSort = vi.fn();
    const host = render({
      sorting: { sort: { key: "weight", direction: "desc" }, onSort, titleFor: (h) => `By ${h}` },
    });
    const [name, weight, note] = [...host.querySelectorAll("th")];
    expect(name?.getAttribute("aria-sort")).toBe("none");
    expect(weight?.getAttribute("aria-sort")).toBe("descending");
    expect(weight?.textContent).toBe("Weight▼");
    expect(note?.hasAttribute("aria-sort")).toBe(false);
    const button = host.querySelector<HTMLButtonElement>('[data-testid="sort-name"]');
    expect(button?.title).toBe("By Name");
    act(() => button?.click());
    expect(onSort).toHaveBeenCalledWith("name");
  });

  it("selects a row by click, opens it by double click and marks it selected", () => {
    const onSelect = vi.fn();
    const onOpen = vi.fn();
    const host = render({ selection: { selectedKey: "b", onSelect, onOpen } });
    const rows = [...host.querySelectorAll("tbody tr")];
    expect(rows.map((row) => row.getAttribute("aria-selected"))).toEqual(["false", "true"]);
    expect(rows[1]?.className).toBe("selected");
    act(() => {
      rows[0]?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
    act(() => {
      rows[0]?.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    });
    expect(onSelect).toHaveBeenCalledWith("a");
    expect(onOpen).toHaveBeenCalledWith("a");
  });

  it("shows the empty state after the table only while there are no rows", () => {
    const empty = createElement("p", { "data-testid": "empty" }, "nothing");
    expect(render({ empty }).querySelector('[data-testid="empty"]')).toBeNull();
    act(() => root?.unmount());
    const host = render({ rows: [], empty });
    expect(host.querySelector('[data-testid="empty"]')?.textContent).toBe("nothing");
    expect(host.querySelectorAll("tbody tr")).toHaveLength(0);
  });

  it("puts a row's details beneath it, across every column", () => {
    const host = render({
      renderAfterRow: (fruit, columnCount) =>
        fruit.id === "a"
          ? createElement(DetailRow, { columnCount, children: "details of a" })
          : null,
    });
    const rows = [...host.querySelectorAll("tbody tr")];
    expect(rows.map((row) => row.className)).toEqual(["", "detail-row", ""]);
    expect(rows[1]?.querySelector("td")?.colSpan).toBe(3);
  });
});
