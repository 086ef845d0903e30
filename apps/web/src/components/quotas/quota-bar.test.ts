// @vitest-environment happy-dom
// The bar rendered into a DOM as a browser would: the borrowed part apart from the guaranteed one,
// the guarantee and limit marks where they fall, and the at-limit class.
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { QuotaBar } from "./quota-bar";

let root: Root | null = null;
let container: HTMLElement;

beforeAll(() => {
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container.remove();
});

function render(held: number, guaranteed: number, limit: number | null): HTMLElement {
  container = document.createElement("div");
  document.body.append(container);
  const line = { resource: "gpus:H100-80G", held, guaranteed, limit, borrowed: 0 };
  act(() => {
    root = createRoot(container);
    root.render(createElement(QuotaBar, { line, title: "12 of 8 guaranteed" }));
  });
  return container;
}

const part = (dom: HTMLElement, id: string) =>
  dom.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe("quota bar", () => {
  it("draws the borrowed part after the guaranteed part, with the guarantee and limit marks", () => {
    const dom = render(12, 8, 16);
    expect(part(dom, "quota-bar")?.getAttribute("aria-label")).toBe("12 of 8 guaranteed");
    expect(part(dom, "quota-bar-within")?.style.width).toBe("50%");
    expect(part(dom, "quota-bar-borrowed")?.style.left).toBe("50%");
    expect(part(dom, "quota-bar-borrowed")?.style.width).toBe("25%");
    expect(part(dom, "quota-bar-guarantee")?.style.left).toBe("50%");
    expect(part(dom, "quota-bar-limit")?.style.left).toBe("100%");
    expect(part(dom, "quota-bar")?.classList.contains("quota-bar-at-limit")).toBe(false);
  });

  it("marks a bar held up to its limit, and leaves out marks for no guarantee and no limit", () => {
    expect(part(render(16, 16, 16), "quota-bar")?.classList.contains("quota-bar-at-limit")).toBe(
      true,
    );
    act(() => root?.unmount());
    root = null;
    container.remove();
    const open = render(2, 0, null);
    expect(part(open, "quota-bar-guarantee")).toBeNull();
    expect(part(open, "quota-bar-limit")).toBeNull();
    expect(part(open, "quota-bar-borrowed")?.style.width).toBe("100%");
  });
});
