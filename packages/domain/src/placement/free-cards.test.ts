// The cards a placement takes on its node: the lowest free healthy ones of its class, however the
// agent listed them, and exactly as many as asked.
import { describe, expect, it } from "vitest";
import { addReplica, buildFleet, freeCardIndexes } from "./fleet";
import type { NodeUsage } from "./fleet-types";
import { cards, node } from "./test-fixtures";

/** Cards listed out of index order (7, 5, 3, 1, 6, 4, 2, 0), one of them unhealthy, two L40S. */
function mixedNode() {
  const listed = cards(8).map((card) => ({
    ...card,
    index: [7, 5, 3, 1, 6, 4, 2, 0][card.index] as number,
  }));
  for (const card of listed) {
    if (card.index === 2) card.isHealthy = false;
    if (card.index === 4 || card.index === 6) card.gpuClass = "L40S";
  }
  return node("n1", { cards: listed });
}

describe("freeCardIndexes", () => {
  it("takes the lowest free healthy cards of the class, in index order, however listed", () => {
    const fleet = buildFleet([mixedNode()], []);
    const usage = fleet.byId.get("n1") as NodeUsage;
    expect(freeCardIndexes(usage, "H100-80G", 3)).toEqual([0, 1, 3]);
    expect(freeCardIndexes(usage, "H100-80G", 10)).toEqual([0, 1, 3, 5, 7]);
    expect(freeCardIndexes(usage, "L40S", 1)).toEqual([4]);
    expect(freeCardIndexes(usage, "H100-80G", 0)).toEqual([]);
    addReplica(fleet, {
      id: "m/r1",
      model: "m",
      shards: [{ nodeId: "n1", cardIndexes: [0, 3] }],
      memoryGb: 1,
      cpuCores: 1,
    });
    expect(freeCardIndexes(usage, "H100-80G", 2)).toEqual([1, 5]);
    // A list taken earlier is the caller's own: the next call does not write over it.
    const taken = freeCardIndexes(usage, "H100-80G", 3);
    freeCardIndexes(usage, "L40S", 2);
    expect(taken).toEqual([1, 5, 7]);
    expect(freeCardIndexes(usage, "A100", 1)).toEqual([]);
  });
});
