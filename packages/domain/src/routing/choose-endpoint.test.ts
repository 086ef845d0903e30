import { describe, expect, it } from "vitest";
import { chooseEndpoint, endpointLoads } from "./choose-endpoint";

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

describe("chooseEndpoint with the engines' waiting queues", () => {
  const scraped = (id: string, inFlight: number, waiting: number | null, weight?: number) => ({
    id,
    inFlight,
    isAvailable: true,
    waiting,
    ...(weight === undefined ? {} : { weight }),
  });

  it("adds the engine's waiting requests to what is in flight", () => {
    // a has fewer in flight, but its engine has a queue of 6 (other clients): b wins.
    const candidates = [scraped("a", 1, 6), scraped("b", 3, 0)];
    expect(chooseEndpoint(candidates, new Set(), 0)?.id).toBe("b");
  });

  it("takes an unknown queue to be as long as the longest known one, never as zero", () => {
    const candidates = [scraped("a", 0, null), scraped("b", 1, 0), scraped("c", 0, 4)];
    // a counts as 0 + 4, b as 1 + 0, c as 0 + 4.
    expect(chooseEndpoint(candidates, new Set(), 0)?.id).toBe("b");
    expect(endpointLoads(candidates)).toEqual([4, 1, 4]);
  });

  it("divides the load by the weight", () => {
    const candidates = [scraped("k1", 2, null, 3), scraped("k2", 1, null, 1)];
    expect(chooseEndpoint(candidates, new Set(), 0)?.id).toBe("k1");
  });
});
