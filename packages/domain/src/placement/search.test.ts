// The ordered search must pick exactly what scoring every candidate picks: same nodes, same order,
// same ties. Seeded fleets mix the cases the lists cannot rank alone (several classes on a node,
// cached weights, a model already present) with needs, multi-node replicas and held cards.
import { describe, expect, it } from "vitest";
import { must } from "../must";
import { addReplica, buildFleet, freeCardIndexes } from "./fleet";
import { classesFor } from "./predicates";
import { bestFits, exhaustiveFits, keptFits, type Fit } from "./search";
import { cards, node, request } from "./test-fixtures";
import { DEFAULT_PLACEMENT_POLICY, type PlacementNode, type PlacementRequest } from "./types";

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const CLASSES = [
  ["H100-80G", 80, 9.0],
  ["A100-80G", 80, 8.0],
  ["L40S", 48, 8.9],
] as const;

function randomNode(random: () => number, index: number): PlacementNode {
  const [gpuClass, memoryGb, capability] = must(CLASSES[index % CLASSES.length], "a GPU class");
  const nodeCards =
    random() < 0.15 ? [] : cards(1 + Math.floor(random() * 8), gpuClass, memoryGb, capability);
  // Some nodes carry a second class on their odd cards.
  if (random() < 0.1)
    for (const card of nodeCards)
      if (card.index % 2)
        Object.assign(card, { gpuClass: "L40S", memoryGb: 48, computeCapability: 8.9 });
  if (random() < 0.05 && nodeCards[0]) nodeCards[0].isHealthy = false;
  return node(`node-${index}`, {
    isReachable: random() > 0.05,
    labels: random() < 0.5 ? { zone: "a" } : { zone: "b" },
    cards: nodeCards,
    memoryGbTotal: 64 + Math.floor(random() * 448),
    cachedSources: random() < 0.3 ? ["org/m0", "org/m1"].filter(() => random() < 0.5) : [],
  });
}

function randomRequest(random: () => number, serial: number): PlacementRequest {
  const model = `m${Math.floor(random() * 4)}`;
  const kind = random();
  const gpu =
    kind < 0.2
      ? undefined
      : kind < 0.45
        ? { min_compute_capability: 8.0, min_memory_gb: 40 }
        : must(CLASSES[Math.floor(random() * 3)], "a GPU class")[0];
  return request({
    replicaId: `${model}/r${serial}`,
    model,
    source: `org/${model}`,
    engine: gpu === undefined ? "llamacpp" : "vllm",
    gpu,
    gpus: gpu === undefined ? 0 : 1 + Math.floor(random() * 4),
    nodes: gpu !== undefined && random() < 0.15 ? 2 : 1,
    memoryGb: 8 + Math.floor(random() * 64),
    nodeSelector: random() < 0.2 ? { zone: "a" } : {},
  });
}

const summary = (fits: Fit[]) =>
  fits.map((fit) => `${fit.usage.node.id}:${fit.gpuClass}:${fit.score.join(",")}`);

describe("bestFits", () => {
  it.each([1, 2, 3, 4, 5, 6])("agrees with scoring every candidate, seed %i", (seed) => {
    const random = prng(seed);
    const fleet = buildFleet(
      Array.from({ length: 60 }, (_, i) => randomNode(random, i)),
      [],
    );
    let placed = 0;
    for (let serial = 0; serial < 300; serial += 1) {
      const ask = randomRequest(random, serial);
      const classes = classesFor(ask, fleet);
      const fits = bestFits(fleet, DEFAULT_PLACEMENT_POLICY, ask, classes);
      expect(summary(fits), ask.replicaId).toEqual(
        summary(exhaustiveFits(fleet, DEFAULT_PLACEMENT_POLICY, ask, classes)),
      );
      if (fits.length < ask.nodes) continue;
      placed += 1;
      const shards = fits.map((fit) => ({
        nodeId: fit.usage.node.id,
        cardIndexes: fit.gpuClass ? freeCardIndexes(fit.usage, fit.gpuClass, ask.gpus) : [],
      }));
      addReplica(fleet, {
        id: ask.replicaId,
        model: ask.model,
        shards,
        memoryGb: ask.memoryGb,
        cpuCores: ask.cpuCores,
      });
    }
    expect(placed).toBeGreaterThan(30);
  });
});

// keptFits answers in one list that every search writes over, its records included: a fit that
// enters takes the free record past the end, or the one that falls off, and the records move
// with their slots. Multi-node asks of up to five nodes make the weighing insert and drop often.
describe("keptFits", () => {
  it.each([1, 2, 3, 4])("keeps a record per slot and the same answer, seed %i", (seed) => {
    const random = prng(seed * 7919);
    const fleet = buildFleet(
      Array.from({ length: 60 }, (_, i) => randomNode(random, i)),
      [],
    );
    let copied: { fits: Fit[]; expected: string[] } | undefined;
    let multi = 0;
    for (let serial = 0; serial < 200; serial += 1) {
      const ask = randomRequest(random, serial);
      if (ask.gpu !== undefined && random() < 0.5) ask.nodes = 2 + Math.floor(random() * 4);
      const classes = classesFor(ask, fleet);
      const kept = keptFits(fleet, DEFAULT_PLACEMENT_POLICY, ask, classes);
      expect(new Set(kept.fits.slice(0, kept.size)).size, ask.replicaId).toBe(kept.size);
      expect(new Set(kept.fits).size, ask.replicaId).toBe(kept.fits.length);
      expect(summary(kept.fits.slice(0, kept.size)), ask.replicaId).toEqual(
        summary(exhaustiveFits(fleet, DEFAULT_PLACEMENT_POLICY, ask, classes)),
      );
      if (kept.size > 1) multi += 1;
      // What bestFits answered for the last ask is its own: this search wrote over nothing of it.
      if (copied) expect(summary(copied.fits)).toEqual(copied.expected);
      const fits = bestFits(fleet, DEFAULT_PLACEMENT_POLICY, ask, classes);
      copied = { fits, expected: summary(fits) };
    }
    expect(multi).toBeGreaterThan(20);
  });
});
