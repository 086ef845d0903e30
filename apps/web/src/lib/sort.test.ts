import { describe, expect, it } from "vitest";
import { ariaSortOf, compareText, toggleSort } from "./sort";

describe("toggleSort", () => {
  it("turns the sorted column around and back", () => {
    const descending = toggleSort({ key: "name", direction: "asc" }, "name");
    expect(descending).toEqual({ key: "name", direction: "desc" });
    expect(toggleSort(descending, "name")).toEqual({ key: "name", direction: "asc" });
  });

  it("sorts a newly chosen column ascending, whichever way the old one went", () => {
    expect(toggleSort({ key: "name", direction: "desc" }, "disk")).toEqual({
      key: "disk",
      direction: "asc",
    });
  });
});

describe("ariaSortOf", () => {
  it("names the direction on the sorted column only", () => {
    expect(ariaSortOf({ key: "name", direction: "asc" }, "name")).toBe("ascending");
    expect(ariaSortOf({ key: "name", direction: "desc" }, "name")).toBe("descending");
    expect(ariaSortOf({ key: "name", direction: "desc" }, "disk")).toBe("none");
  });
});

describe("compareText", () => {
  it("orders numbers inside names by value, as the tables show nodes", () => {
    const names = ["node-10", "node-2", "node-1", "gpu-b", "gpu-a"];
    expect([...names].sort(compareText)).toEqual(["gpu-a", "gpu-b", "node-1", "node-2", "node-10"]);
    expect(compareText("node-2", "node-2")).toBe(0);
  });
});
