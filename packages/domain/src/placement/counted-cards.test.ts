// Counting a placement without reading its cards: holding a card finds its class by the node's
// masks, a shard's draw is a product when every card draws alike, the power check reads a node's
// one budget from a cell, and placement names the class of a shard's cards for the quota check.
// Each is held here to the plain reading of the card records, on random nodes whose agents list
// cards out of order, repeat an index now and then, and mix classes, health and draws.
import { describe, expect, it } from "vitest";
import { cardClass } from "../quota/accounting";
import { seededRandom, type RandomFn } from "../seeded-random";
import { addReplica, buildFleet } from "./fleet";
import type { Fleet, NodeUsage } from "./fleet-types";
import { placeShards, type ChosenNodes } from "./place";
import { breaksBudget } from "./power";
import { cards, node, request } from "./test-fixtures";
import { DEFAULT_PLACEMENT_POLICY, type PlacementCard, type PlacementNode } from "./types";

const CLASSES = ["H100-80G", "L40S"] as const;

function randomCards(random: RandomFn): PlacementCard[] {
  const pick = (n: number) => Math.floor(random() * n);
  const count = 1 + pick(12);
  const alike = random() < 0.6;
  const listed = cards(count).map((card) => ({
    ...card,
    // Now and then an index twice, as a confused agent might report it, with another class.
    index: random() < 0.08 ? pick(count) : card.index,
    gpuClass: random() < 0.25 ? "L40S" : "H100-80G",
    isHealthy: random() > 0.1,
    drawWatts: alike ? 700 : random() < 0.2 ? undefined : 300 + pick(5) * 100,
  }));
  listed.sort(() => random() - 0.5);
  return listed;
}

function randomNodes(random: RandomFn): PlacementNode[] {
  const count = 4 + Math.floor(random() * 12);
  return Array.from({ length: count }, (_, at) => {
    const roll = random();
    const budgets =
      roll < 0.5
        ? [{ domain: `pdu=p${at % 3}`, watts: 1_500 + Math.floor(random() * 4_000) }]
        : roll < 0.7
          ? [
              { domain: `pdu=p${at % 3}`, watts: 3_000 },
              { domain: `feed=f${at % 2}`, watts: 6_000 },
            ]
          : undefined;
    // A later node now and then takes an earlier one's id: placement reads the later one.
    const id = at > 0 && random() < 0.1 ? `n${at - 1}` : `n${at}`;
    return node(id, { cards: randomCards(random), powerBudgets: budgets });
  });
}

/** The first card with the index, as the card records say: what holding it counted before. */
const firstCard = (usage: NodeUsage, index: number) =>
  usage.node.cards.find((card) => card.index === index);

/** Free healthy cards per class, worked out from the records and who holds each index. */
function plainFree(usage: NodeUsage): number[] {
  return usage.gpuClasses.map((gpuClass) => {
    const healthy = usage.node.cards.filter(
      (card) => card.gpuClass === gpuClass && card.isHealthy,
    ).length;
    let held = 0;
    usage.holders.forEach((holder, index) => {
      const card = firstCard(usage, index);
      if (holder !== undefined && card?.isHealthy && card.gpuClass === gpuClass) held += 1;
    });
    return healthy - held;
  });
}

function plainWatts(usage: NodeUsage, indexes: readonly number[], declared?: number): number {
  let watts = 0;
  for (const index of indexes) {
    const own = firstCard(usage, index)?.drawWatts ?? 0;
    watts += declared !== undefined && declared >= own ? declared : own;
  }
  return watts;
}

describe("a placement counted without reading its cards", () => {
  it("counts free cards and draws as the card records say, and the power check agrees", () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const random = seededRandom(seed);
      const fleet = buildFleet(randomNodes(random), []);
      const draws = new Map<string, number>();
      for (let step = 0; step < 30; step += 1) {
        const usage = fleet.nodes[Math.floor(random() * fleet.nodes.length)] as NodeUsage;
        // Indexes the node lists, and now and then one it does not (past 30 included).
        const cardIndexes = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
          random() < 0.15 ? 9 + Math.floor(random() * 30) : Math.floor(random() * 12),
        );
        const declared = random() < 0.5 ? 250 + Math.floor(random() * 8) * 100 : undefined;
        const target = fleet.byId.get(usage.node.id) as NodeUsage;
        const watts = plainWatts(target, cardIndexes, declared);
        for (const budget of target.node.powerBudgets ?? [])
          draws.set(budget.domain, (draws.get(budget.domain) ?? 0) + watts);
        addReplica(fleet, {
          id: `m${step % 4}/r${step}`,
          model: `m${step % 4}`,
          shards: [{ nodeId: usage.node.id, cardIndexes }],
          memoryGb: 1,
          cpuCores: 1,
          drawWattsPerCard: declared,
        });
        const where = `seed ${seed} step ${step}`;
        for (const each of fleet.nodes) {
          const free = plainFree(each);
          expect(each.freeCounts, where).toEqual(free);
          expect(each.freeTotal, where).toBe(free.reduce((sum, n) => sum + n, 0));
        }
        expect([...fleet.drawWattsByDomain], where).toEqual([...draws]);
        checkPower(random, fleet, draws, where);
      }
    }
  });
});

/** The power check on the fleet (its cells) against the same check on a view of the plain draws. */
function checkPower(
  random: RandomFn,
  fleet: Fleet,
  draws: Map<string, number>,
  where: string,
): void {
  const view: Fleet = { ...fleet, drawWattsByDomain: new Map(draws) };
  const ask = request({
    gpu: CLASSES[Math.floor(random() * 2)],
    gpus: 1 + Math.floor(random() * 4),
    drawWattsPerCard: random() < 0.5 ? 200 + Math.floor(random() * 8) * 100 : undefined,
  });
  for (const usage of fleet.nodes)
    for (const gpuClass of [...usage.gpuClasses, undefined])
      expect(breaksBudget(fleet, usage, ask, gpuClass), where).toBe(
        breaksBudget(view, usage, ask, gpuClass),
      );
}

describe("the class placement names for a shard's cards", () => {
  it("is the class of every card the shard takes, as the quota check would read it", () => {
    let named = 0;
    let unnamed = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const random = seededRandom(seed);
      const fleet = buildFleet(randomNodes(random), []);
      const chosen: ChosenNodes = { usages: [], size: 0, cardClasses: [] };
      for (let step = 0; step < 20; step += 1) {
        const ask = request({
          replicaId: `m/r${step}`,
          gpu: CLASSES[Math.floor(random() * 2)],
          gpus: 1 + Math.floor(random() * 3),
          nodes: random() < 0.2 ? 2 : 1,
          memoryGb: 1,
          cpuCores: 1,
        });
        const shards = placeShards(fleet, DEFAULT_PLACEMENT_POLICY, ask, chosen);
        if (shards === undefined) continue;
        shards.forEach((shard, at) => {
          const gpuClass = chosen.cardClasses?.[at];
          if (gpuClass === undefined) {
            unnamed += 1;
            return;
          }
          named += 1;
          // The quota check reads the node the id names now: the last of that id.
          const { node: read } = fleet.byId.get(shard.nodeId) as NodeUsage;
          for (const index of shard.cardIndexes)
            expect(cardClass(read, index), `seed ${seed} step ${step}`).toBe(gpuClass);
        });
        addReplica(fleet, { ...ask, id: ask.replicaId, shards }, chosen.usages);
      }
    }
    // Both kinds came up: nodes whose cards tell apart by index, and nodes that need reading.
    expect(named).toBeGreaterThan(100);
    expect(unnamed).toBeGreaterThan(10);
  });
});
