import { describe, expect, it } from "vitest";
import type { PlacementNode } from "@llmgw/domain";
import { freeNodesByFabric, freeWholeNodes, unaskedFor } from "./status-sections";

function node(
  name: string,
  cards: string[],
  options: { fabric?: string; hold?: string; isReachable?: boolean; unhealthy?: number } = {},
): PlacementNode {
  return {
    id: `id-${name}`,
    name,
    isReachable: options.isReachable ?? true,
    labels: options.fabric ? { "llmgw.io/fabric": options.fabric } : {},
    cards: cards.map((gpuClass, index) => ({
      index,
      gpuClass,
      memoryGb: 80,
      computeCapability: 9,
      isHealthy: index !== options.unhealthy,
    })),
    memoryGbTotal: 512,
    cpuCoresTotal: 64,
    diskGbFree: 1000,
    ...(options.hold ? { hold: options.hold } : {}),
  };
}

const H100x8 = Array<string>(8).fill("H100-80G");

describe("freeWholeNodes", () => {
  it("keeps only reachable nodes with cards, none held, unhealthy or kept out", () => {
    const nodes = [
      node("b-free", H100x8),
      node("a-free", ["A100-80G"]),
      node("busy", H100x8),
      node("cpu-only", []),
      node("away", H100x8, { isReachable: false }),
      node("cordoned", H100x8, { hold: "cordoned by ada" }),
      node("sick-card", H100x8, { unhealthy: 3 }),
    ];
    const free = freeWholeNodes(nodes, new Set(["id-busy"]));
    expect(free.map((n) => n.name)).toEqual(["a-free", "b-free"]);
  });
});

describe("freeNodesByFabric", () => {
  it("groups free nodes by fabric, counted by card model and cards per node, unlabelled last", () => {
    const free = [
      node("n1", H100x8, { fabric: "ib-b" }),
      node("n2", H100x8, { fabric: "ib-a" }),
      node("n3", H100x8, { fabric: "ib-a" }),
      node("n4", ["H100-80G", "H100-80G"], { fabric: "ib-a" }),
      node("n5", ["L40S", "A100-80G"]),
      node("n6", ["A100-80G", "L40S"]),
    ];
    expect(freeNodesByFabric(free)).toEqual([
      {
        fabric: "ib-a",
        nodes: 3,
        byCardModel: [
          { cardModel: "H100-80G", cardsPerNode: 2, nodes: 1 },
          { cardModel: "H100-80G", cardsPerNode: 8, nodes: 2 },
        ],
      },
      {
        fabric: "ib-b",
        nodes: 1,
        byCardModel: [{ cardModel: "H100-80G", cardsPerNode: 8, nodes: 1 }],
      },
      {
        fabric: null,
        nodes: 2,
        byCardModel: [{ cardModel: "A100-80G+L40S", cardsPerNode: 2, nodes: 2 }],
      },
    ]);
  });

  it("is empty when no node is free", () => {
    expect(freeNodesByFabric([])).toEqual([]);
  });
});

describe("unaskedFor", () => {
  const nowMs = 100 * 3_600_000;
  const sinceMs = nowMs - 24 * 3_600_000;
  const models = [
    { model: "asked-an-hour-ago", replicasReady: 1, cardsHeld: 1 },
    { model: "asked-two-days-ago", replicasReady: 1, cardsHeld: 1 },
    { model: "never-asked", replicasReady: 2, cardsHeld: 16 },
    { model: "not-ready", replicasReady: 0, cardsHeld: 8 },
  ];
  const asked = new Map([
    ["asked-an-hour-ago", nowMs - 3_600_000],
    ["asked-two-days-ago", nowMs - 48 * 3_600_000],
  ]);

  it("lists models with a ready replica and no request in the window, most cards first", () => {
    expect(unaskedFor(models, asked, sinceMs)).toEqual([
      { model: "never-asked", replicasReady: 2, cardsHeld: 16 },
      { model: "asked-two-days-ago", replicasReady: 1, cardsHeld: 1 },
    ]);
  });

  it("counts a request at the window's very start as asking", () => {
    const atStart = new Map([["never-asked", sinceMs]]);
    expect(unaskedFor(models, atStart, sinceMs).map((m) => m.model)).not.toContain("never-asked");
  });
});
