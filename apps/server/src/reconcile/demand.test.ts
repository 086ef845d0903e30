import { describe, expect, it } from "vitest";
import { DemandBook } from "./demand";

describe("DemandBook", () => {
  it("keeps the latest request per model and nothing for a model never asked for", () => {
    const demand = new DemandBook();
    demand.record("a", 1_000);
    demand.record("a", 2_500);
    demand.record("b", 700);
    expect(demand.lastAt("a")).toBe(2_500);
    expect(demand.lastAt("b")).toBe(700);
    expect(demand.lastAt("c")).toBeNull();
  });

  it("forgets a model's demand so that it starts again from none", () => {
    const demand = new DemandBook();
    demand.record("a", 1_000);
    demand.forget("a");
    expect(demand.lastAt("a")).toBeNull();
    demand.record("a", 3_000);
    expect(demand.lastAt("a")).toBe(3_000);
  });
});
