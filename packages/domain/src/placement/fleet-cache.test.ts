// The kept placement index must be, after any sequence of passes, exactly the index built from
// scratch over the same nodes and replicas: a seeded property test over random fleets (classes,
// unhealthy cards, racks and PDUs with budgets, cached weights, roles, unreachable nodes) whose
// nodes sometimes stay, sometimes change, and whose replicas come and go. After each rebuild the
// same requests are placed on both, which must answer alike and stay alike.
import { describe, expect, it } from "vitest";
import { domainLabel } from "../facility/domains";
import { seededRandom, type RandomFn } from "../seeded-random";
import { addReplica, buildFleet } from "./fleet";
import { createFleetCache, fleetFrom } from "./fleet-cache";
import type { Fleet } from "./fleet-types";
import { placeOne } from "./place";
import { cards, node, request } from "./test-fixtures";
import {
  DEFAULT_PLACEMENT_POLICY,
  type ExistingReplica,
  type PlacementNode,
  type PlacementRequest,
} from "./types";

const pick = <T>(random: RandomFn, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
const MODELS = ["m0", "m1", "m2", "m3", "m4"];
const SOURCES = ["s/m0", "s/m1", "s/m2"];
const ROLE = DEFAULT_PLACEMENT_POLICY.roleLabel;

function randomNode(random: RandomFn, id: string): PlacementNode {
  const kind = random();
  const gpuCards =
    kind < 0.2
      ? []
      : kind < 0.3
        ? [...cards(2, "H100-80G"), ...cards(2, "L40S", 48, 8.9)].map((card, index) => ({
            ...card,
            index,
          }))
        : cards(1 + Math.floor(random() * 8), random() < 0.6 ? "H100-80G" : "L40S");
  const rack = `r${Math.floor(random() * 4)}`;
  const pdu = `p${Math.floor(random() * 6)}`;
  const labels: Record<string, string> = {};
  if (random() < 0.8) labels[domainLabel("rack")] = rack;
  if (random() < 0.7) labels[domainLabel("pdu")] = pdu;
  if (random() < 0.1) labels[ROLE] = "judge";
  return node(id, {
    isReachable: random() < 0.93,
    labels,
    cards: gpuCards.map((card) => ({
      ...card,
      isHealthy: random() < 0.95,
      drawWatts: card.gpuClass === "L40S" ? 350 : 700,
    })),
    memoryGbTotal: 128 + Math.floor(random() * 4) * 128,
    cpuCoresTotal: 16 + Math.floor(random() * 4) * 16,
    cachedSources: random() < 0.3 ? [pick(random, SOURCES)] : undefined,
    powerBudgets:
      labels[domainLabel("pdu")] && random() < 0.5
        ? [{ domain: `pdu=${pdu}`, watts: 1_500 + Math.floor(random() * 3_000) }]
        : undefined,
  });
}

/** Replicas on free-looking cards of random nodes; some span two nodes. */
function randomReplicas(random: RandomFn, nodes: readonly PlacementNode[], step: number) {
  const replicas: ExistingReplica[] = [];
  const count = Math.floor(random() * nodes.length * 1.5);
  for (let at = 0; at < count; at += 1) {
    const shardCount = random() < 0.1 ? 2 : 1;
    const shards = Array.from({ length: shardCount }, () => {
      const on = pick(random, nodes);
      const indexes = on.cards.filter(() => random() < 0.3).map((card) => card.index);
      return { nodeId: random() < 0.03 ? "gone" : on.id, cardIndexes: indexes };
    });
    replicas.push({
      id: `${pick(random, MODELS)}/s${step}r${at}`,
      model: pick(random, MODELS),
      shards,
      memoryGb: Math.floor(random() * 64),
      cpuCores: Math.floor(random() * 8),
      drawWattsPerCard: random() < 0.3 ? 400 : undefined,
    });
  }
  return replicas;
}

function randomRequest(random: RandomFn, at: number): PlacementRequest {
  const model = pick(random, MODELS);
  const gpu = random();
  return request({
    replicaId: `${model}/new${at}`,
    model,
    source: pick(random, SOURCES),
    gpu:
      gpu < 0.25
        ? undefined
        : gpu < 0.5
          ? { min_memory_gb: 40 }
          : pick(random, ["H100-80G", "L40S"] as const),
    gpus: gpu < 0.25 ? 0 : 1 + Math.floor(random() * 3),
    nodes: random() < 0.1 ? 2 : 1,
    memoryGb: Math.floor(random() * 96),
    cpuCores: Math.floor(random() * 12),
    nodeSelector: random() < 0.1 ? { [ROLE]: "judge" } : {},
    drawWattsPerCard: random() < 0.3 ? 500 : undefined,
  });
}

const entries = <V>(map: ReadonlyMap<string, V>) => [...map.entries()];
const ids = (nodes: Iterable<{ node: PlacementNode }>) => [...nodes].map((u) => u.node.id);

/** Everything a fleet holds, as plain values; an empty model map reads as none, as readers see it. */
function snapshot(fleet: Fleet) {
  return {
    nodes: fleet.nodes.map((usage) => ({
      id: usage.node.id,
      position: usage.position,
      gpuClasses: usage.gpuClasses,
      soleClass: usage.soleClass,
      holders: usage.holders.flatMap((holder, index) =>
        holder === undefined ? [] : [[index, holder]],
      ),
      freeCounts: usage.freeCounts,
      freeTotal: usage.freeTotal,
      mostCardWatts: usage.mostCardWatts,
      memoryGbUsed: usage.memoryGbUsed,
      memoryShare: usage.memoryShare,
      cpuCoresUsed: usage.cpuCoresUsed,
      replicaCount: usage.replicaCount,
      modelCounts: usage.modelCounts?.entries() ?? [],
      cachedSources: [...usage.cachedSources],
      spreadDomains: usage.spreadDomains,
      spreadCounts: usage.spreadCounts.map(entries),
    })),
    byId: [...fleet.byId.keys()],
    nodesByClass: entries(fleet.nodesByClass).map(([key, list]) => [key, ids(list)]),
    classes: entries(fleet.classes),
    multiClassNodes: ids(fleet.multiClassNodes),
    nodesBySource: entries(fleet.nodesBySource).map(([key, list]) => [key, ids(list)]),
    nodesByModel: entries(fleet.nodesByModel).map(([key, list]) => [key, ids(list)]),
    drawWattsByDomain: entries(fleet.drawWattsByDomain),
    nodesByDomain: entries(fleet.nodesByDomain).map(([key, list]) => [key, ids(list)]),
    domainModelCounts: entries(fleet.domainModelCounts).map(([key, counts]) => [
      key,
      entries(counts),
    ]),
    domainsNearModel: entries(fleet.domainsNearModel),
  };
}

/** Compared as text first: vitest's deep equality is too slow to call thousands of times. */
function same(kept: Fleet, fresh: Fleet, where: string): void {
  const [a, b] = [snapshot(kept), snapshot(fresh)];
  if (JSON.stringify(a) !== JSON.stringify(b)) expect(a, where).toEqual(b);
}

/**
 * Some nodes as a heartbeat remakes them: new objects with new free disk and measured draw, and
 * now and then what placement reads when it asks (reachability, a hold, memory) changed too, or
 * a card's health, which each pass counts again.
 */
function heartbeat(random: RandomFn, nodes: PlacementNode[]): void {
  for (let at = 0; at < nodes.length; at += 1) {
    if (random() < 0.5) continue;
    const was = nodes[at] as PlacementNode;
    const other = random();
    nodes[at] = {
      ...was,
      diskGbFree: Math.floor(random() * 2_000),
      cards: was.cards.map((card, index) => ({
        ...card,
        drawWatts: 200 + Math.floor(random() * 600),
        // Now and then a card goes bad or comes back.
        isHealthy: other >= 0.1 && other < 0.13 && index === 0 ? !card.isHealthy : card.isHealthy,
      })),
      ...(other < 0.1 ? { isReachable: !was.isReachable } : {}),
      ...(other > 0.95 ? { hold: "held for the test" } : {}),
      ...(other > 0.9 && other <= 0.95 ? { memoryGbTotal: was.memoryGbTotal * 2 } : {}),
    };
  }
}

function nextNodes(random: RandomFn, nodes: PlacementNode[], step: number): PlacementNode[] {
  const change = random();
  // Most passes see the same nodes; the rest change one, add one or drop one.
  if (change < 0.5) return nodes;
  const next = [...nodes];
  if (change < 0.6) heartbeat(random, next);
  else if (change < 0.75) next[Math.floor(random() * next.length)] = randomNode(random, `n${step}`);
  else if (change < 0.85) next.push(randomNode(random, `n${step}`));
  else if (change < 0.95 && next.length > 2) next.splice(Math.floor(random() * next.length), 1);
  // else: the same nodes in a new array, which is still a reuse
  return next;
}

function check(seed: number): { reused: number; built: number; refreshed: number } {
  const random = seededRandom(seed);
  let nodes = Array.from({ length: 12 + Math.floor(random() * 20) }, (_, at) =>
    randomNode(random, `n-${at}`),
  );
  const cache = createFleetCache();
  for (let step = 0; step < 30; step += 1) {
    nodes = nextNodes(random, nodes, step);
    const replicas = randomReplicas(random, nodes, step);
    const kept = fleetFrom(cache, nodes, replicas);
    const fresh = buildFleet(nodes, replicas);
    same(kept, fresh, `seed ${seed} step ${step}`);
    // Every record reads the node passed now, not the one it was built over.
    kept.nodes.forEach((usage, at) => {
      if (usage.node !== nodes[at]) expect(usage.node, `seed ${seed} step ${step}`).toBe(nodes[at]);
    });
    // Placing on both builds the ordered lists on both and must answer alike, request by request.
    const requests = Array.from({ length: 1 + Math.floor(random() * 8) }, (_, at) =>
      randomRequest(random, at),
    );
    for (const asked of requests) {
      const onKept = placeOne(kept, DEFAULT_PLACEMENT_POLICY, asked);
      const onFresh = placeOne(fresh, DEFAULT_PLACEMENT_POLICY, asked);
      if (JSON.stringify(onKept) !== JSON.stringify(onFresh))
        expect(onKept, `seed ${seed} step ${step} ${asked.replicaId}`).toEqual(onFresh);
      if (!onKept.ok) continue;
      const placed = { ...asked, id: asked.replicaId, shards: onKept.shards };
      addReplica(kept, placed);
      addReplica(fresh, placed);
    }
    same(kept, fresh, `seed ${seed} step ${step} after placing`);
  }
  return { reused: cache.reused, built: cache.built, refreshed: cache.refreshed };
}

describe("the placement index kept between passes", () => {
  it("equals an index built from scratch after any sequence of passes (seeded)", () => {
    let reused = 0;
    let built = 0;
    let refreshed = 0;
    for (let seed = 1; seed <= 20; seed += 1) {
      const counts = check(seed);
      reused += counts.reused;
      built += counts.built;
      refreshed += counts.refreshed;
    }
    // Every path was exercised, many times each: nodes kept, nodes taken in, index rebuilt.
    expect(reused).toBeGreaterThan(150);
    expect(built).toBeGreaterThan(100);
    expect(refreshed).toBeGreaterThan(300);
    // A few seconds on a quiet machine; the default 5 s is short on a loaded one.
  }, 60_000);

  it("takes in a node remade by a heartbeat, and is rebuilt when what it indexed changed", () => {
    const nodes = [node("a", { labels: { [domainLabel("rack")]: "r1" } }), node("b")];
    const cache = createFleetCache();
    fleetFrom(cache, nodes, []);
    fleetFrom(cache, [...nodes], []);
    expect(cache).toMatchObject({ reused: 1, built: 1, refreshed: 0 });
    const b = nodes[1] as PlacementNode;
    const beat = {
      ...b,
      diskGbFree: 7,
      cards: b.cards.map((card) => ({ ...card, drawWatts: 650 })),
    };
    const fleet = fleetFrom(cache, [nodes[0] as PlacementNode, beat], []);
    expect(cache).toMatchObject({ reused: 2, built: 1, refreshed: 1 });
    expect(fleet.byId.get("b")).toMatchObject({ node: beat, mostCardWatts: 650 });
    // A card gone bad is counted again by the pass: taken in, and no longer free.
    const unhealthy = {
      ...beat,
      cards: beat.cards.map((card, at) => ({ ...card, isHealthy: at > 0 })),
    };
    const after = fleetFrom(cache, [nodes[0] as PlacementNode, unhealthy], []);
    expect(cache).toMatchObject({ reused: 3, built: 1, refreshed: 2 });
    expect(after.byId.get("b")?.freeTotal).toBe(b.cards.length - 1);
    // A card fewer, or another rack: what the index holds changed, so it is built again.
    const smaller = { ...unhealthy, cards: unhealthy.cards.slice(1) };
    fleetFrom(cache, [nodes[0] as PlacementNode, smaller], []);
    expect(cache).toMatchObject({ reused: 3, built: 2 });
    const moved = { ...(nodes[0] as PlacementNode), labels: { [domainLabel("rack")]: "r2" } };
    fleetFrom(cache, [moved, smaller], []);
    expect(cache).toMatchObject({ reused: 3, built: 3 });
  });

  it("is not reused after the caller changes the array it passed", () => {
    const nodes = [node("a"), node("b")];
    const cache = createFleetCache();
    fleetFrom(cache, nodes, []);
    nodes.push(node("c"));
    const fleet = fleetFrom(cache, nodes, []);
    expect(fleet.nodes.map((usage) => usage.node.id)).toEqual(["a", "b", "c"]);
    expect(cache.built).toBe(2);
  });
});
