// Power budgets: a replica that would take a domain past its cap is refused there, naming the
// domain and the watts; cards already held count what they draw.
import { describe, expect, it } from "vitest";
import { explainPlacement, formatExplanation } from "./explain";
import { placeReplica, placeReplicas } from "./place";
import { cards, node, request } from "./test-fixtures";
import type { PlacementNode } from "./types";

const drawing = (count: number, watts: number) =>
  cards(count).map((card) => ({ ...card, drawWatts: watts }));
const capped = (id: string, watts: number): PlacementNode =>
  node(id, {
    labels: { "llmgw.io/pdu": "p1" },
    cards: drawing(4, 700),
    powerBudgets: [{ domain: "pdu=p1", watts }],
  });

describe("power budgets", () => {
  it("places up to the cap and refuses the card that would pass it, naming domain and watts", () => {
    const nodes = [capped("a", 2_000)];
    const asks = ["r1", "r2", "r3"].map((id) => request({ replicaId: id }));
    const results = placeReplicas({ nodes, replicas: [] }, asks);
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    const refused = results[2];
    expect(refused?.ok === false && refused.rejections[0]?.reasons).toEqual([
      "would take pdu p1 to 2100 W of its 2000 W power budget (draws 1400 W, this replica adds 700 W)",
    ]);
  });

  it("counts held cards across the domain's nodes, and sends the replica outside it", () => {
    const nodes = [capped("a", 1_500), capped("b", 1_500), node("c")];
    const replicas = [
      {
        id: "x/r1",
        model: "x",
        shards: [{ nodeId: "a", cardIndexes: [0, 1] }],
        memoryGb: 0,
        cpuCores: 0,
      },
    ];
    const ask = request({ gpus: 1 });
    expect(placeReplica({ nodes, replicas }, ask)).toMatchObject({
      ok: true,
      shards: [{ nodeId: "c" }],
    });
    const lines = formatExplanation(explainPlacement({ nodes, replicas }, ask));
    expect(lines).toContain(
      "b: would take pdu p1 to 2100 W of its 1500 W power budget (draws 1400 W, this replica adds 700 W)",
    );
  });

  it("counts the hungriest free cards when cards of one class draw differently", () => {
    // Cards 0 and 1 draw 700 W, 2 and 3 draw 400 W: two cards add 1400 W, whichever are taken.
    const mixed = cards(4).map((card) => ({ ...card, drawWatts: card.index < 2 ? 700 : 400 }));
    const nodes = [
      node("a", {
        labels: { "llmgw.io/pdu": "p1" },
        cards: mixed,
        powerBudgets: [{ domain: "pdu=p1", watts: 1_300 }],
      }),
    ];
    const refused = placeReplica({ nodes, replicas: [] }, request({ gpus: 2 }));
    expect(refused.ok === false && refused.rejections[0]?.reasons).toEqual([
      "would take pdu p1 to 1400 W of its 1300 W power budget (draws 0 W, this replica adds 1400 W)",
    ]);
    expect(placeReplica({ nodes, replicas: [] }, request({ gpus: 1 })).ok).toBe(true);
  });
});
