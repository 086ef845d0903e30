import { describe, expect, it } from "vitest";
import { moveSelection } from "./use-row-keyboard";

describe("moveSelection", () => {
  const ids = ["a", "b", "c"];

  it("starts at the first row going down and the last going up", () => {
    expect(moveSelection(ids, null, 1)).toBe("a");
    expect(moveSelection(ids, null, -1)).toBe("c");
  });

  it("moves and clamps at both ends", () => {
    expect(moveSelection(ids, "a", 1)).toBe("b");
    expect(moveSelection(ids, "c", 1)).toBe("c");
    expect(moveSelection(ids, "a", -10)).toBe("a");
  });

  it("restarts when the selected row was filtered away, and has nothing to select in an empty table", () => {
    expect(moveSelection(ids, "gone", 1)).toBe("a");
    expect(moveSelection([], "a", 1)).toBeNull();
  });
});
