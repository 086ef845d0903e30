import { TABLE_WINDOW_ROWS_MAX } from "@llmgw/api/schemas";
import { describe, expect, it } from "vitest";
import { FIRST_TABLE_WINDOW, tableWindowFor } from "./table-window";

describe("tableWindowFor", () => {
  it("opens at the top, and holds the rows drawn with a margin on each side", () => {
    expect(tableWindowFor(0, 56)).toEqual(FIRST_TABLE_WINDOW);
    for (const first of [0, 37, 149, 950, 1999]) {
      const last = first + 56;
      const window = tableWindowFor(first, last);
      expect(window.offset % 50).toBe(0);
      expect(window.offset).toBeLessThanOrEqual(Math.max(0, first - 50));
      expect(window.offset + window.limit).toBeGreaterThan(last + 40);
    }
  });

  it("asks nothing new while a scroll stays within a step", () => {
    expect(tableWindowFor(120, 176)).toEqual(tableWindowFor(140, 196));
    expect(tableWindowFor(120, 176)).not.toEqual(tableWindowFor(150, 206));
  });

  it("never asks for more rows than the server gives at once", () => {
    expect(tableWindowFor(0, 5000).limit).toBe(TABLE_WINDOW_ROWS_MAX);
  });
});
