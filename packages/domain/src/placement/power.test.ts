// Power budgets: a replica that would take a domain past its cap is refused there, naming the
// domain and the watts; cards already held count what they draw.
import { describe, expect, it } from "vitest";
import { explainPlacement, formatExplanation } from "./explain";
import { buildFleet } from "./fleet";
import { placeReplica, placeReplicas } from "./place";
import { roomOnNode } from "./room";
import { cards, node, request } from "./test-fixtures";
import { DEFAULT_PLACEMENT_POLICY, type ExistingReplica, type PlacementNode } from "./types";

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

  it("counts the catalog's declared draw when it is above the card's, and says so", () => {
    const nodes = [capped("a", 1_800)];
    const replicas = [held("x/r1", [0], 900)];
    const ask = request({ drawWattsPerCard: 1_000 });
    expect(formatExplanation(explainPlacement({ nodes, replicas }, ask))).toContain(
      "a: would take pdu p1 to 1900 W of its 1800 W power budget (draws 900 W, this replica adds 1000 W by the catalog's declared draw)",
    );
    // Below the card's own figure the declared draw does not lower what is counted.
    expect(placeReplica({ nodes, replicas }, request({ drawWattsPerCard: 100 })).ok).toBe(true);
  });
});

const held = (id: string, cardIndexes: number[], drawWattsPerCard?: number): ExistingReplica => ({
  id,
  model: id.split("/")[0] ?? id,
  shards: [{ nodeId: "a", cardIndexes }],
  memoryGb: 0,
  cpuCores: 0,
  drawWattsPerCard,
});

describe("where each card's draw comes from", () => {
  const sourced = (from: "power limit" | "derived" | "measured", watts: number) =>
    node("a", {
      labels: { "llmgw.io/pdu": "p1" },
      cards: cards(2).map((card) => ({ ...card, drawWatts: watts, drawFrom: from })),
      powerBudgets: [{ domain: "pdu=p1", watts: 1_000 }],
    });

  it("names the derived board power when that is what counted", () => {
    const nodes = [sourced("derived", 700)];
    const lines = formatExplanation(
      explainPlacement({ nodes, replicas: [held("x/r1", [0])] }, request()),
    );
    expect(lines).toContain(
      "a: would take pdu p1 to 1400 W of its 1000 W power budget (draws 700 W, this replica adds 700 W by the card model's published board power)",
    );
  });

  it("names the measured draw, and the catalog's figure when it is higher", () => {
    const nodes = [sourced("measured", 600)];
    const replicas = [held("x/r1", [0], 450)];
    expect(formatExplanation(explainPlacement({ nodes, replicas }, request()))).toContain(
      "a: would take pdu p1 to 1200 W of its 1000 W power budget (draws 600 W, this replica adds 600 W by the cards' measured draw)",
    );
    const declared = request({ drawWattsPerCard: 650 });
    expect(formatExplanation(explainPlacement({ nodes, replicas }, declared))).toContain(
      "a: would take pdu p1 to 1250 W of its 1000 W power budget (draws 600 W, this replica adds 650 W by the catalog's declared draw)",
    );
  });

  it("holds a replica already placed to its declared draw", () => {
    const nodes = [sourced("power limit", 300)];
    const replicas = [held("x/r1", [0], 800)];
    const result = placeReplica({ nodes, replicas }, request());
    expect(result.ok).toBe(false);
  });
});

describe("making room under a power budget", () => {
  // Two 700 W cards under a 700 W cap: one replica holds one card, so the other is free but
  // cannot be drawn on; stopping the holder frees its watts with its card.
  const nodes = [capped("a", 700)].map((n) => ({ ...n, cards: drawing(2, 700) }));
  const idle = held("idle/r1", [0]);

  it("counts the leaving replica's watts as freed, not beside its successor", () => {
    const fleet = buildFleet(nodes, [idle]);
    expect(placeReplica({ nodes, replicas: [idle] }, request()).ok).toBe(false);
    const room = roomOnNode(fleet, DEFAULT_PLACEMENT_POLICY, request(), "a", [idle]);
    expect(room).toEqual({ leaving: [idle], shard: { nodeId: "a", cardIndexes: [0] } });
  });

  it("still refuses when the leaving replica frees too little", () => {
    const declared = request({ drawWattsPerCard: 900 });
    const fleet = buildFleet(nodes, [idle]);
    expect(roomOnNode(fleet, DEFAULT_PLACEMENT_POLICY, declared, "a", [idle])).toBeNull();
  });
});
