// nodeFits calls PREDICATES' checks by name rather than through the list: a node failing any one
// check, and only that one, must be refused by it, and a check added to the list needs a case here.
import { describe, expect, it } from "vitest";
import { buildFleet } from "./fleet";
import { allFailures, classesFor, nodeFits, PREDICATES, type NodeCheck } from "./predicates";
import { cards, node, request } from "./test-fixtures";
import { DEFAULT_PLACEMENT_POLICY, type PlacementNode, type PlacementRequest } from "./types";

function checkOf(placementNode: PlacementNode, asked: PlacementRequest): NodeCheck {
  const fleet = buildFleet([placementNode], []);
  const usage = fleet.nodes[0];
  if (usage === undefined) throw new Error("no node record");
  const classes = classesFor(asked, fleet);
  return { request: asked, usage, policy: DEFAULT_PLACEMENT_POLICY, classes, fleet };
}

/** Per check, a node and a request that fail it and pass every other. */
const FAILING_ONE: Record<string, [PlacementNode, PlacementRequest]> = {
  reachable: [node("n", { isReachable: false }), request()],
  held: [node("n", { hold: "cordoned" }), request()],
  engine: [node("n", { engines: ["llamacpp"] }), request()],
  role: [node("n", { labels: { "llmgw.role": "judge" } }), request()],
  selector: [node("n"), request({ nodeSelector: { zone: "a" } })],
  domain: [node("n"), request({ nodes: 2, keepWithin: "rack" })],
  cards: [node("n", { cards: cards(8, "L40S", 48, 8.9) }), request()],
  memory: [node("n", { memoryGbTotal: 8 }), request()],
  cpu: [node("n", { cpuCoresTotal: 2 }), request()],
  disk: [node("n", { diskGbFree: 1 }), request()],
  power: [
    node("n", { powerBudgets: [{ domain: "rack=r1", watts: 100 }] }),
    request({ drawWattsPerCard: 700 }),
  ],
};

describe("nodeFits", () => {
  it("has a case for every check, in PREDICATES' order", () => {
    expect(Object.keys(FAILING_ONE)).toEqual(PREDICATES.map((predicate) => predicate.name));
  });

  it("takes a node that passes every check", () => {
    const check = checkOf(node("n"), request());
    expect(allFailures(check).failed).toEqual([]);
    expect(nodeFits(check)).toBe(true);
  });

  for (const [name, [placementNode, asked]] of Object.entries(FAILING_ONE))
    it(`refuses a node failing only the ${name} check`, () => {
      const check = checkOf(placementNode, asked);
      expect(allFailures(check).failed).toEqual([name]);
      expect(nodeFits(check)).toBe(false);
    });
});
