import { describe, expect, it } from "vitest";
import { must } from "./must";

describe("must", () => {
  it("returns a value that is there, falsy ones included", () => {
    expect(must(0, "count")).toBe(0);
    expect(must("", "name")).toBe("");
    expect(must([1, 2][1], "second")).toBe(2);
  });

  it("throws an error naming what was missing", () => {
    expect(() => must(undefined, "the card's colour")).toThrow(
      "internal: the card's colour is missing",
    );
    expect(() => must(null, "a row")).toThrow("a row is missing");
  });
});
