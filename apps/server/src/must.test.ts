import { describe, expect, it } from "vitest";
import { must } from "./must.js";

describe("must", () => {
  it("hands back a present value, falsy ones included", () => {
    expect(must(0, "count")).toBe(0);
    expect(must("", "name")).toBe("");
    expect(must({ id: "a" }, "row")).toEqual({ id: "a" });
  });

  it("names what was missing when the value is absent", () => {
    expect(() => must(undefined, "inserted user row")).toThrow(
      "internal error: inserted user row is missing",
    );
    expect(() => must(null, "group")).toThrow("internal error: group is missing");
  });
});
