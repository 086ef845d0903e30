// The cards a placement takes on its node: the lowest free healthy ones of its class, however the
// agent listed them, and exactly as many as asked.
import { describe, expect, it } from "vitest";
import { addReplica, buildFleet, freeCardIndexes } from "./fleet";
import type { NodeUsage } from "./fleet-types";
import { seededRandom } from "../seeded-random";
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

/** The cards a placement should take, worked out the plain way: filter, sort, cut. */
function expectedCards(usage: NodeUsage, gpuClass: string, count: number): number[] {
  return usage.node.cards
    .filter((card) => card.gpuClass === gpuClass && card.isHealthy)
    .map((card) => card.index)
    .filter((index) => usage.holders[index] === undefined)
    .sort((a, b) => a - b)
    .slice(0, count);
}

describe("freeCardIndexes' shared lists", () => {
  it("hands the same list to every shard that takes the same cards", () => {
    const fleet = buildFleet(
      [node("n1", { cards: cards(8) }), node("n2", { cards: cards(8) })],
      [],
    );
    const [one, two] = fleet.nodes as [NodeUsage, NodeUsage];
    const first = freeCardIndexes(one, "H100-80G", 2);
    expect(first).toEqual([0, 1]);
    expect(freeCardIndexes(two, "H100-80G", 2)).toBe(first);
    expect(freeCardIndexes(one, "H100-80G", 3)).toEqual([0, 1, 2]);
    expect(freeCardIndexes(one, "H100-80G", 3)).not.toBe(first);
  });

  it("equals the plain reading on random nodes, cards past 7 and repeated indexes included", () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const random = seededRandom(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const count = 1 + pick(16);
      const listed = cards(count).map((card) => ({
        ...card,
        // Now and then an index twice, as a confused agent might report it.
        index: random() < 0.1 ? pick(count) : card.index,
        gpuClass: random() < 0.3 ? "L40S" : "H100-80G",
        isHealthy: random() > 0.1,
      }));
      listed.sort(() => random() - 0.5);
      const fleet = buildFleet([node("n1", { cards: listed })], []);
      const usage = fleet.nodes[0] as NodeUsage;
      for (let step = 0; step < 12; step += 1) {
        const gpuClass = random() < 0.5 ? "L40S" : "H100-80G";
        const wanted = pick(5);
        const taken = freeCardIndexes(usage, gpuClass, wanted);
        expect(taken, `seed ${seed} step ${step}`).toEqual(expectedCards(usage, gpuClass, wanted));
        if (taken.length === 0 || random() < 0.3) continue;
        addReplica(fleet, {
          id: `m/r${step}`,
          model: "m",
          shards: [{ nodeId: "n1", cardIndexes: taken }],
          memoryGb: 0,
          cpuCores: 0,
        });
      }
    }
  });
});
