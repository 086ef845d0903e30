import { describe, expect, it } from "vitest";
import { chooseEndpoint } from "./choose-endpoint";

const ep = (id: string, inFlight: number, isAvailable = true) => ({ id, inFlight, isAvailable });

describe("chooseEndpoint", () => {
  it("picks the least in-flight endpoint", () => {
    expect(chooseEndpoint([ep("a", 3), ep("b", 1), ep("c", 2)], new Set(), 0)?.id).toBe("b");
  });

  it("skips endpoints whose breaker is open and ones already tried", () => {
    const candidates = [ep("a", 0, false), ep("b", 1), ep("c", 2)];
    expect(chooseEndpoint(candidates, new Set(["b"]), 0)?.id).toBe("c");
    expect(chooseEndpoint(candidates, new Set(["b", "c"]), 0)).toBeUndefined();
  });

  it("rotates among equals", () => {
    const candidates = [ep("a", 1), ep("b", 1), ep("c", 5)];
    const picked = new Set([0, 1, 2, 3].map((n) => chooseEndpoint(candidates, new Set(), n)?.id));
    expect(picked).toEqual(new Set(["a", "b"]));
  });
});
