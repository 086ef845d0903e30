import { describe, expect, it } from "vitest";
import { DomainCounts } from "./domain-counts";

const asMap = (counts: DomainCounts) => new Map(counts.entries());

describe("DomainCounts", () => {
  it("reads as a Map of the models counted since the last emptying, in first-counted order", () => {
    const counts = new DomainCounts();
    expect(counts.add("b")).toBe(0);
    expect(counts.add("a")).toBe(0);
    expect(counts.add("b")).toBe(1);
    expect([...counts]).toEqual([
      ["b", 2],
      ["a", 1],
    ]);
    expect(counts.size).toBe(2);
    counts.clear();
    expect(counts.size).toBe(0);
    expect([...counts.entries()]).toEqual([]);
    expect(counts.get("b")).toBeUndefined();
    expect(counts.has("a")).toBe(false);
    // After emptying, the order is the new pass's, as a new Map's would be.
    counts.add("a");
    counts.add("c");
    counts.add("a");
    expect(asMap(counts)).toEqual(
      new Map([
        ["a", 2],
        ["c", 1],
      ]),
    );
    expect([...counts.keys()]).toEqual(["a", "c"]);
    expect([...counts.values()]).toEqual([2, 1]);
    expect(counts.get("b")).toBeUndefined();
    expect(counts.has("c")).toBe(true);
  });

  it("agrees with a Map emptied by clear over random passes", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646;
    const counts = new DomainCounts();
    for (let pass = 0; pass < 50; pass += 1) {
      const map = new Map<string, number>();
      // Later passes name models the earlier ones never did, as a changing catalog would.
      const models = 3 + Math.floor(random() * 40);
      for (let at = 0; at < 60; at += 1) {
        const model = `m${pass + Math.floor(random() * models)}`;
        expect(counts.add(model)).toBe(map.get(model) ?? 0);
        map.set(model, (map.get(model) ?? 0) + 1);
      }
      expect([...counts]).toEqual([...map]);
      for (const model of ["m0", "m1", `m${pass}`]) {
        expect(counts.get(model)).toBe(map.get(model));
        expect(counts.countOf(model)).toBe(map.get(model) ?? 0);
      }
      counts.clear();
    }
  });
});
