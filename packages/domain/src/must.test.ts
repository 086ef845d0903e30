import { describe, expect, it } from "vitest";
import { must } from "./must";

describe("must", () => {
  it("gives back a present value, falsy ones included", () => {
    expect(must(0, "count")).toBe(0);
    expect(must("", "name")).toBe("");
    expect(must(false, "flag")).toBe(false);
  });

  it("throws naming what was missing for undefined and null", () => {
    expect(() => must(undefined, "the first issue")).toThrow("the first issue is missing");
    expect(() => must(null, "row 3")).toThrow("row 3 is missing");
  });
});
