import { describe, expect, it } from "vitest";
import { cardKey, cardOwnership } from "./ownership";

describe("cardOwnership", () => {
  it("names each held card's replica, model and owner, on every node a replica spans", () => {
    const byCard = cardOwnership(
      {
        models: ["chat", "code"],
        nodeIds: ["node-a", "node-b"],
        replicas: [
          { id: "r1", model: 0, places: [{ node: 0, gpuIndexes: [0, 1] }] },
          {
            id: "r2",
            model: 1,
            places: [
              { node: 0, gpuIndexes: [2] },
              { node: 1, gpuIndexes: [5] },
            ],
          },
        ],
      },
      new Map([["chat", "team-a"]]),
    );
    expect(byCard.get(cardKey("node-a", 1))).toEqual({
      replicaId: "r1",
      model: "chat",
      owner: "team-a",
    });
    expect(byCard.get(cardKey("node-b", 5))).toEqual({
      replicaId: "r2",
      model: "code",
      owner: null,
    });
    expect(byCard.get(cardKey("node-a", 2))?.replicaId).toBe("r2");
    expect(byCard.has(cardKey("node-a", 3))).toBe(false);
    expect(byCard.size).toBe(4);
  });

  it("is empty before the replicas have loaded", () => {
    expect(cardOwnership(undefined, new Map()).size).toBe(0);
  });
});
