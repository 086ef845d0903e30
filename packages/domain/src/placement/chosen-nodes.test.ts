// A placement hands the records it chose to addReplica, which then looks none up by id. Where two
// nodes share an id, the search may choose the one the fleet's map does not find; counting the
// replica there would differ from looking it up, so such a record is never taken as given.
import { describe, expect, it } from "vitest";
import { addReplica, buildFleet } from "./fleet";
import type { Fleet } from "./fleet-types";
import { placeOne, type ChosenNodes } from "./place";
import { cards, node, request } from "./test-fixtures";
import { DEFAULT_PLACEMENT_POLICY, type PlacementNode } from "./types";

const counted = (fleet: Fleet) =>
  fleet.nodes.map((usage) => [usage.freeTotal, usage.replicaCount, usage.memoryGbUsed]);

function placeTwice(nodes: PlacementNode[]): { given: Fleet; lookedUp: Fleet } {
  const given = buildFleet(nodes, []);
  const lookedUp = buildFleet(nodes, []);
  for (let at = 0; at < 3; at += 1) {
    const asked = request({ replicaId: `m/r${at}`, model: "m", memoryGb: 8 });
    const chosen: ChosenNodes = { usages: [], size: 0 };
    const result = placeOne(given, DEFAULT_PLACEMENT_POLICY, asked, chosen);
    expect(result.ok).toBe(true);
    if (!result.ok) continue;
    expect(chosen.size).toBe(result.shards.length);
    const placed = { ...asked, id: asked.replicaId, shards: result.shards };
    addReplica(given, placed, chosen.usages);
    addReplica(lookedUp, placed);
  }
  return { given, lookedUp };
}

describe("the records a placement chose", () => {
  it("count a replica where looking its node up by id would", () => {
    const { given, lookedUp } = placeTwice([
      node("a", { cards: cards(2) }),
      node("b", { cards: cards(4) }),
      node("c", { cards: cards(8) }),
    ]);
    expect(counted(given)).toEqual(counted(lookedUp));
    expect(counted(given).reduce((sum, [, replicas]) => sum + (replicas ?? 0), 0)).toBe(3);
  });

  it("are looked up by id where a later node shares the id", () => {
    // The first "a" packs tighter, so the search chooses it; the fleet's map finds the second.
    const { given, lookedUp } = placeTwice([
      node("a", { cards: cards(2) }),
      node("b", { cards: cards(8) }),
      node("a", { cards: cards(8) }),
    ]);
    expect(counted(given)).toEqual(counted(lookedUp));
    expect(given.nodes[2]?.replicaCount).toBeGreaterThan(0);
  });
});
