// A seeded random fleet and catalog, placed over several rounds in which nodes die and return,
// checked against the invariants placement must never break. A failing seed replays exactly.
import { describe, expect, it } from "vitest";
import type { GpuNeed } from "../catalog/model-definition";
import { must } from "../must";
import { seededRandom } from "../seeded-random";
import { placeReplicas } from "./place";
import type { ExistingReplica, PlacementCard, PlacementNode, PlacementRequest } from "./types";

const prng = seededRandom;

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
const between = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

const CLASSES = [
  { gpuClass: "H100-80G", memoryGb: 80, computeCapability: 9.0 },
  { gpuClass: "L40S", memoryGb: 48, computeCapability: 8.9 },
  { gpuClass: "RTX-2080-SUPER", memoryGb: 8, computeCapability: 7.5 },
];

function randomNode(random: Random, index: number): PlacementNode {
  const kind = random() < 0.2 ? undefined : pick(random, CLASSES);
  const cards: PlacementCard[] = kind
    ? Array.from({ length: between(random, 1, 8) }, (_, card) => ({
        index: card,
        ...kind,
        isHealthy: random() > 0.05,
      }))
    : [];
  const labels: Record<string, string> = { zone: pick(random, ["a", "b"]) };
  if (random() < 0.1) labels["llmgw.role"] = "judge";
  return {
    id: `node-${index}`,
    name: `node-${index}`,
    isReachable: random() > 0.1,
    labels,
    cards,
    memoryGbTotal: between(random, 32, 512),
    cpuCoresTotal: between(random, 8, 64),
    diskGbFree: between(random, 10, 500),
    engines: random() < 0.1 ? ["llamacpp", "sim"] : undefined,
  };
}

interface SimModel {
  name: string;
  max: number;
  template: Omit<PlacementRequest, "replicaId">;
}

function randomModel(random: Random, index: number): SimModel {
  const isCpu = random() < 0.3;
  const gpu: string | GpuNeed | undefined = isCpu
    ? undefined
    : random() < 0.5
      ? pick(random, CLASSES).gpuClass
      : {
          min_compute_capability: pick(random, [7, 8, 8.9]),
          min_memory_gb: pick(random, [8, 24, 48]),
        };
  const nodeSelector: Record<string, string> = {};
  if (random() < 0.3) nodeSelector.zone = pick(random, ["a", "b"]);
  if (random() < 0.1) nodeSelector["llmgw.role"] = "judge";
  const name = `model-${index}`;
  const template = {
    model: name,
    profile: "p",
    source: `org/${name}`,
    engine: isCpu ? ("llamacpp" as const) : ("vllm" as const),
    gpus: isCpu ? 0 : between(random, 1, 4),
    nodes: !isCpu && random() < 0.1 ? 2 : 1,
    memoryGb: between(random, 1, 64),
    cpuCores: between(random, 0, 8),
    sizeGb: between(random, 1, 100),
    nodeSelector,
  };
  return {
    name,
    max: between(random, 1, 6),
    template: gpu === undefined ? template : { ...template, gpu },
  };
}

function classMeets(card: PlacementCard, gpu: string | GpuNeed): boolean {
  if (typeof gpu === "string") return card.gpuClass === gpu;
  return (
    card.memoryGb >= (gpu.min_memory_gb ?? 0) &&
    card.computeCapability >= (gpu.min_compute_capability ?? 0)
  );
}

function checkInvariants(
  nodes: readonly PlacementNode[],
  replicas: readonly ExistingReplica[],
  models: Map<string, SimModel>,
): void {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const cardHolder = new Map<string, string>();
  const memory = new Map<string, number>();
  const perModel = new Map<string, number>();
  for (const replica of replicas) {
    const model = must(models.get(replica.model), `model ${replica.model}`);
    perModel.set(replica.model, (perModel.get(replica.model) ?? 0) + 1);
    const classes = new Set<string>();
    for (const shard of replica.shards) {
      const n = must(byId.get(shard.nodeId), `node ${shard.nodeId}`);
      expect(n.isReachable, `${replica.id} on unreachable ${n.id}`).toBe(true);
      for (const [key, value] of Object.entries(model.template.nodeSelector))
        expect(n.labels[key], `${replica.id} selector ${key}`).toBe(value);
      const role = n.labels["llmgw.role"];
      if (role !== undefined)
        expect(
          model.template.nodeSelector["llmgw.role"],
          `${replica.id} on role node ${n.id}`,
        ).toBe(role);
      if (n.engines) expect(n.engines).toContain(model.template.engine);
      expect(shard.cardIndexes.length).toBe(model.template.gpus);
      memory.set(n.id, (memory.get(n.id) ?? 0) + replica.memoryGb);
      for (const index of shard.cardIndexes) {
        const card = must(
          n.cards.find((c) => c.index === index),
          `card ${index} of ${n.id}`,
        );
        expect(card.isHealthy, `${replica.id} on unhealthy card`).toBe(true);
        expect(
          classMeets(card, must(model.template.gpu, `the GPU need of ${model.name}`)),
          `${replica.id} on ${card.gpuClass}`,
        ).toBe(true);
        classes.add(card.gpuClass);
        const key = `${n.id}#${index}`;
        expect(cardHolder.get(key), `two replicas on ${key}`).toBeUndefined();
        cardHolder.set(key, replica.id);
      }
    }
    expect(classes.size).toBeLessThanOrEqual(1);
    expect(new Set(replica.shards.map((s) => s.nodeId)).size).toBe(replica.shards.length);
  }
  for (const [nodeId, used] of memory)
    expect(used).toBeLessThanOrEqual(must(byId.get(nodeId), `node ${nodeId}`).memoryGbTotal);
  for (const [name, count] of perModel)
    expect(count).toBeLessThanOrEqual(must(models.get(name), `model ${name}`).max);
}

function runSeed(seed: number): { placed: number; refused: number } {
  const random = prng(seed);
  let nodes = Array.from({ length: between(random, 20, 120) }, (_, i) => randomNode(random, i));
  const models = new Map(
    Array.from({ length: between(random, 10, 40) }, (_, i) => randomModel(random, i)).map((m) => [
      m.name,
      m,
    ]),
  );
  let replicas: ExistingReplica[] = [];
  let placed = 0;
  let refused = 0;
  let serial = 0;
  for (let round = 0; round < 4; round += 1) {
    // Nodes die and come back between rounds; replicas on a dead node are gone with it.
    nodes = nodes.map((n) => (random() < 0.1 ? { ...n, isReachable: !n.isReachable } : n));
    const alive = new Set(nodes.filter((n) => n.isReachable).map((n) => n.id));
    replicas = replicas.filter((r) => r.shards.every((s) => alive.has(s.nodeId)));
    const requests: PlacementRequest[] = [];
    for (const model of models.values()) {
      const have = replicas.filter((r) => r.model === model.name).length;
      for (let k = have; k < model.max; k += 1)
        requests.push({ ...model.template, replicaId: `${model.name}/r${(serial += 1)}` });
    }
    const results = placeReplicas({ nodes, replicas }, requests);
    results.forEach((result, index) => {
      const req = must(requests[index], `request ${index}`);
      if (result.ok) {
        placed += 1;
        replicas.push({
          id: req.replicaId,
          model: req.model,
          shards: result.shards,
          memoryGb: req.memoryGb,
          cpuCores: req.cpuCores,
        });
      } else {
        refused += 1;
        expect(
          result.rejections.every(
            (r) => r.reasons.length > 0 && r.reasons.length === r.failed.length,
          ),
        ).toBe(true);
        if (req.nodes === 1)
          expect(result.rejections.length, `every node explains ${req.replicaId}`).toBe(
            nodes.length,
          );
      }
    });
    checkInvariants(nodes, replicas, models);
  }
  return { placed, refused };
}

const SEEDS = Array.from({ length: 25 }, (_, i) => 1_000 + i * 7_919);

describe("placement over seeded random fleets", () => {
  const totals = { placed: 0, refused: 0 };

  it.each(SEEDS)("seed %i keeps every invariant", (seed) => {
    const { placed, refused } = runSeed(seed);
    expect(placed).toBeGreaterThan(0);
    totals.placed += placed;
    totals.refused += refused;
  });

  it("exercised both placing and refusing across the seeds", () => {
    // Runs after the seeds above; a simulation that never refuses would not be testing the rules.
    expect(totals.refused).toBeGreaterThan(SEEDS.length);
    expect(totals.placed).toBeGreaterThan(SEEDS.length * 10);
  });

  it("replays a seed exactly", () => {
    expect(runSeed(42)).toEqual(runSeed(42));
  });
});
