// Refusals of requests alike are explained once per state of the fleet: the reasons must still be
// those of the moment each request was refused, never of an earlier state.
import { describe, expect, it } from "vitest";
import { placeReplicas } from "./place";
import { cards, node, request } from "./test-fixtures";
import type { PlacementResult } from "./types";

const reasons = (result: PlacementResult | undefined) =>
  result && !result.ok ? result.rejections.flatMap((rejection) => rejection.reasons) : [];

describe("refusals in one pass", () => {
  it("repeat for requests alike and change once a placement changes the fleet", () => {
    const nodes = [node("node-1", { cards: cards(2) })];
    const big = (id: string) => request({ replicaId: `big/${id}`, model: "big", gpus: 4 });
    const results = placeReplicas({ nodes, replicas: [] }, [
      big("r1"),
      big("r2"),
      request({ replicaId: "small/r1", model: "small", gpus: 1 }),
      big("r3"),
    ]);
    expect(reasons(results[0])).toEqual(["needs 4 free H100-80G cards, has 2"]);
    expect(results[1]).toEqual({ ...results[0], replicaId: "big/r2" });
    expect(results[2]?.ok).toBe(true);
    expect(reasons(results[3])).toEqual([
      "needs 4 free H100-80G cards, has 1 (card 0 held by small/r1)",
    ]);
  });
});
