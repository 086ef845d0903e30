// A model's asks are searched one after another with one request, and each search after the first
// starts where the last stopped (SearchResume). Held here to scoring every candidate, ask by ask,
// over random fleets with racks, PDUs under power budgets, cached weights, roles and unreachable
// nodes, while between asks the placement is taken, refused (as a quota would), or another
// replica of the model or of another model lands somewhere else, and other requests search too.
import { describe, expect, it } from "vitest";
import { domainLabel } from "../facility/domains";
import { seededRandom, type RandomFn } from "../seeded-random";
import { addReplica, buildFleet, freeCardIndexes } from "./fleet";
import type { Fleet } from "./fleet-types";
import { classesFor } from "./predicates";
import { bestFits, exhaustiveFits, type Fit } from "./search";
import { cards, node, request } from "./test-fixtures";
import { DEFAULT_PLACEMENT_POLICY, type PlacementNode, type PlacementRequest } from "./types";

const ROLE = DEFAULT_PLACEMENT_POLICY.roleLabel;
const pick = <T>(random: RandomFn, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

function randomNode(random: RandomFn, at: number): PlacementNode {
  const gpuClass = random() < 0.6 ? "H100-80G" : "L40S";
  const nodeCards = cards(1 + Math.floor(random() * 8), gpuClass).map((card) => ({
    ...card,
    isHealthy: random() < 0.95,
    drawWatts: gpuClass === "L40S" ? 350 : 700,
  }));
  // Racks and PDUs of neighbours, as a building numbers them, so a model's first racks are at
  // the front of the lists the search reads.
  const pdu = `p${Math.floor(at / 4)}`;
  const labels: Record<string, string> = {
    [domainLabel("rack")]: `r${Math.floor(at / 8)}`,
    [domainLabel("pdu")]: pdu,
  };
  if (random() < 0.08) labels[ROLE] = "judge";
  return node(`n${at}`, {
    isReachable: random() < 0.95,
    labels,
    cards: gpuClass === "L40S" ? nodeCards.map((card) => ({ ...card, memoryGb: 48 })) : nodeCards,
    memoryGbTotal: 128 + Math.floor(random() * 4) * 128,
    cpuCoresTotal: 16 + Math.floor(random() * 4) * 16,
    cachedSources: random() < 0.2 ? [pick(random, ["s/m0", "s/m1"])] : undefined,
    powerBudgets:
      random() < 0.4
        ? [{ domain: `pdu=${pdu}`, watts: 2_000 + Math.floor(random() * 6_000) }]
        : undefined,
  });
}

function randomAsk(random: RandomFn, serial: number): PlacementRequest {
  const model = `m${serial % 7}`;
  return request({
    model,
    source: `s/${model}`,
    gpu: pick(random, ["H100-80G", "L40S"] as const),
    gpus: 1 + Math.floor(random() * 3),
    memoryGb: Math.floor(random() * 128),
    cpuCores: Math.floor(random() * 12),
    nodeSelector: random() < 0.1 ? { [ROLE]: "judge" } : {},
    drawWattsPerCard: random() < 0.5 ? 400 + Math.floor(random() * 400) : undefined,
  });
}

const summary = (fits: Fit[]) =>
  fits.map((fit) => `${fit.usage.node.id}:${fit.gpuClass}:${fit.score.join(",")}`);

function place(fleet: Fleet, ask: PlacementRequest, fits: Fit[], id: string): void {
  const shards = fits.map((fit) => ({
    nodeId: fit.usage.node.id,
    cardIndexes: fit.gpuClass ? freeCardIndexes(fit.usage, fit.gpuClass, ask.gpus) : [],
  }));
  addReplica(fleet, { ...ask, id, shards });
}

/** A replica put somewhere the search did not choose: a random node's first free card. */
function elsewhere(random: RandomFn, fleet: Fleet, model: string, id: string): void {
  const usage = pick(random, fleet.nodes);
  const free = usage.node.cards.find((card) => usage.holders[card.index] === undefined);
  const shards = [{ nodeId: usage.node.id, cardIndexes: free ? [free.index] : [] }];
  addReplica(fleet, { id, model, shards, memoryGb: 8, cpuCores: 1, drawWattsPerCard: 600 });
}

/** Searches a model's asks in turn; returns how many came straight after an ask of the same request. */
function checkSeed(seed: number): number {
  const random = seededRandom(seed);
  const fleet = buildFleet(
    Array.from({ length: 40 + Math.floor(random() * 60) }, (_, at) => randomNode(random, at)),
    [],
  );
  let followUps = 0;
  let serial = 0;
  for (let model = 0; model < 40; model += 1) {
    const ask = randomAsk(random, model);
    const classes = classesFor(ask, fleet);
    const asks = 2 + Math.floor(random() * 10);
    for (let at = 0; at < asks; at += 1) {
      serial += 1;
      ask.replicaId = `${ask.model}/r${serial}`;
      const expected = summary(exhaustiveFits(fleet, DEFAULT_PLACEMENT_POLICY, ask, classes));
      const fits = bestFits(fleet, DEFAULT_PLACEMENT_POLICY, ask, classes);
      expect(summary(fits), `seed ${seed} ${ask.replicaId}`).toEqual(expected);
      if (at > 0) followUps += 1;
      if (fits.length === 0) continue;
      const roll = random();
      if (roll < 0.7) place(fleet, ask, fits, ask.replicaId);
      else if (roll < 0.8)
        continue; // refused after the search, as a quota refuses
      else if (roll < 0.88) elsewhere(random, fleet, ask.model, `${ask.model}/x${serial}`);
      else if (roll < 0.94) elsewhere(random, fleet, `other${serial % 3}`, `other/x${serial}`);
      else {
        // Another request searches (and places) in between.
        const other = randomAsk(random, model + 1);
        const otherFits = bestFits(
          fleet,
          DEFAULT_PLACEMENT_POLICY,
          other,
          classesFor(other, fleet),
        );
        if (otherFits.length > 0) place(fleet, other, otherFits, `${other.model}/y${serial}`);
      }
    }
  }
  return followUps;
}

describe("a search resumed where the model's last ask stopped", () => {
  it.each(Array.from({ length: 16 }, (_, at) => at + 1))(
    "chooses what scoring every candidate chooses, seed %i",
    (seed) => {
      expect(checkSeed(seed)).toBeGreaterThan(100);
    },
  );
});
