import { describe, expect, it } from "vitest";
import { isColumnIdList, shownColumns, toggleHiddenColumn } from "./columns";

const COLUMNS = [
  { id: "name", isFixed: true },
  { id: "state" },
  { id: "disk" },
  { id: "menu", isFixed: true },
];

describe("the columns a person hides", () => {
  it("hide and show again one at a time", () => {
    const hidden = toggleHiddenColumn([], "disk");
    expect(hidden).toEqual(["disk"]);
    expect(toggleHiddenColumn(hidden, "state")).toEqual(["disk", "state"]);
    expect(toggleHiddenColumn(hidden, "disk")).toEqual([]);
  });

  it("leave the other columns in their order, and keep a fixed one an old desk hid", () => {
    expect(shownColumns(COLUMNS, ["disk", "name", "gone"]).map((column) => column.id)).toEqual([
      "name",
      "state",
      "menu",
    ]);
    expect(shownColumns(COLUMNS, undefined)).toHaveLength(4);
  });

  it("are read back from the desk only as a list of ids", () => {
    expect(isColumnIdList(["disk"])).toBe(true);
    expect(isColumnIdList([])).toBe(true);
    expect(isColumnIdList("disk")).toBe(false);
    expect(isColumnIdList([3])).toBe(false);
  });
});
