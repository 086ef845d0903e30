// A seeded random cluster over many ticks: nodes join, die and return, models come and go,
// engines start, fail or never get ready. After every tick the named invariants must hold; a
// failing seed replays exactly.
import { describe, expect, it } from "vitest";
import { placedReplica } from "./test-fixtures";
import { parseModelDefinition } from "../catalog/model-definition";
import type { PlacementCard } from "../placement/types";
import { replaceNotBeforeMs } from "./failure-backoff";
import { isNodeLost } from "./nodes";
import { planReconcile } from "./plan";
import {
  DEFAULT_RECONCILE_POLICY,
  type DesiredModel,
  type ModelHealth,
  type ObservedReplica,
  type ReconcileAction,
  type ReconcileNode,
} from "./types";

/** xorshift32: tiny and deterministic; for tests only, never for secrets. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4_294_967_296;
  };
}

type Random = () => number;
const TICK_MS = 1_000;
const CLASSES = ["H100-80G", "L40S"];
// Failed starts wait 2 s, doubling to 8 s (ticks are 1 s) before the next start.
const policy = {
  ...DEFAULT_RECONCILE_POLICY,
  lostAfterMs: 3_000,
  failureBackoff: { baseMs: 2_000, capMs: 8_000 },
};

interface World {
  random: Random;
  nowMs: number;
  nodes: ReconcileNode[];
  models: DesiredModel[];
  health: Map<string, ModelHealth>;
  replicas: Map<string, ObservedReplica & { lostStopped?: boolean }>;
  alwaysFails: Set<string>;
  nextId: number;
}

function newNode(world: World, index: number): ReconcileNode {
  const random = world.random;
  const gpuClass = random() < 0.25 ? undefined : CLASSES[Math.floor(random() * CLASSES.length)];
  const cards: PlacementCard[] = gpuClass
    ? Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) => ({
        index: i,
        gpuClass,
        memoryGb: 80,
        computeCapability: 9,
        isHealthy: true,
      }))
    : [];
  const labels: Record<string, string> = random() < 0.3 ? { zone: "a" } : {};
  const node = {
    id: `n${index}`,
    name: `node-${index}`,
    isReachable: true,
    labels,
    cards,
    memoryGbTotal: 64,
    cpuCoresTotal: 16,
    diskGbFree: 500,
  };
  return { node, unreachableSinceMs: null };
}

function newModel(world: World, index: number): DesiredModel {
  const random = world.random;
  const min = Math.floor(random() * 3);
  const gpuClass = CLASSES[Math.floor(random() * CLASSES.length)] as string;
  const useCpu = random() < 0.3;
  const profile = useCpu
    ? { name: "cpu", engine: "sim", memory_gb: 8, cpu_cores: 2 }
    : {
        name: "gpu",
        engine: "vllm",
        gpu: gpuClass,
        gpus: 1 + Math.floor(random() * 2),
        node_selector: { labels: random() < 0.2 ? { zone: "a" } : {} },
      };
  const parsed = parseModelDefinition({
    name: `m${index}`,
    source: "org/model",
    profiles: [profile],
    replicas: { min, max: min + Math.floor(random() * 2) || 1 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  if (random() < 0.1) world.alwaysFails.add(parsed.model.name);
  return { definition: parsed.model, revision: 1 };
}

/** Engines move one phase per tick; a model marked failing never gets ready. */
function advanceEngines(world: World): void {
  for (const replica of world.replicas.values()) {
    const node = world.nodes.find((n) => n.node.id === replica.nodeId);
    if (!node?.node.isReachable) continue;
    if (replica.phase === "placing") replica.phase = "starting";
    else if (replica.phase === "starting") {
      const fails = world.alwaysFails.has(replica.model) || world.random() < 0.05;
      replica.phase = fails ? "failed" : "ready";
      replica.message = fails ? "engine never became ready" : "";
    }
  }
}

function churn(world: World): void {
  const random = world.random;
  const roll = random();
  if (roll < 0.08) {
    const node = world.nodes[Math.floor(random() * world.nodes.length)];
    if (node?.node.isReachable)
      world.nodes[world.nodes.indexOf(node)] = {
        node: { ...node.node, isReachable: false },
        unreachableSinceMs: world.nowMs,
      };
  } else if (roll < 0.16) {
    const down = world.nodes.filter((n) => !n.node.isReachable);
    const node = down[Math.floor(random() * down.length)];
    if (node) returnNode(world, node);
  } else if (roll < 0.2) world.nodes.push(newNode(world, world.nodes.length));
  else if (roll < 0.25) world.models.push(newModel(world, world.nextId++));
  else if (roll < 0.28 && world.models.length > 0)
    world.models.splice(Math.floor(random() * world.models.length), 1);
}

/** A node that comes back reports its engines; the server adopts them again, as here. */
function returnNode(world: World, node: ReconcileNode): void {
  world.nodes[world.nodes.indexOf(node)] = {
    node: { ...node.node, isReachable: true },
    unreachableSinceMs: null,
  };
  for (const replica of world.replicas.values()) {
    if (replica.nodeId === node.node.id && replica.lostStopped) {
      replica.phase = "ready";
      replica.lostStopped = false;
    }
  }
}

function execute(world: World, actions: ReconcileAction[]): void {
  for (const action of actions) {
    if (action.kind === "node-lost") continue;
    const health = world.health.get(action.model) ?? {
      name: action.model,
      consecutiveFailures: 0,
      isParked: false,
      lastError: null,
      revision: 1,
    };
    if (action.kind === "place") {
      world.replicas.set(action.replicaId, placedReplica(action, world.nowMs));
    } else if (action.kind === "stop") {
      const replica = world.replicas.get(action.replicaId);
      const node = world.nodes.find((n) => n.node.id === action.nodeId);
      if (replica)
        Object.assign(replica, { phase: "stopped", lostStopped: !node?.node.isReachable });
    } else if (action.kind === "count-failure") {
      world.health.set(action.model, {
        ...health,
        consecutiveFailures: health.consecutiveFailures + 1,
        lastError: action.error,
        lastFailureAtMs: world.nowMs,
      });
    } else if (action.kind === "park")
      world.health.set(action.model, { ...health, isParked: true });
    else if (action.kind === "reset-failures")
      world.health.set(action.model, {
        name: action.model,
        consecutiveFailures: 0,
        isParked: false,
        lastError: null,
        revision: action.revision,
      });
  }
}

function checkInvariants(
  world: World,
  actions: ReconcileAction[],
  seed: number,
  tick: number,
): void {
  const where = `seed ${seed} tick ${tick}`;
  const live = [...world.replicas.values()].filter((r) => r.phase !== "stopped");
  const cards = new Set<string>();
  for (const r of live) {
    for (const index of r.gpuIndexes) {
      const key = `${r.nodeId}/${index}`;
      expect(cards.has(key), `${where}: two replicas on card ${key}`).toBe(false);
      cards.add(key);
    }
    const model = world.models.find((m) => m.definition.name === r.model);
    const node = world.nodes.find((n) => n.node.id === r.nodeId)?.node;
    const profile = model?.definition.profiles.find((p) => p.name === r.profile);
    if (!profile || !node) continue;
    const gpu = typeof profile.gpu === "string" ? profile.gpu : undefined;
    for (const index of r.gpuIndexes)
      expect(
        node.cards.find((c) => c.index === index)?.gpuClass,
        `${where}: ${r.id} on a card of another class`,
      ).toBe(gpu);
    for (const [key, value] of Object.entries(profile.node_selector.labels))
      expect(node.labels[key], `${where}: ${r.id} on a node without ${key}`).toBe(value);
  }
  for (const model of world.models) {
    const name = model.definition.name;
    const counting = live.filter(
      (r) =>
        r.model === name &&
        r.phase !== "failed" &&
        !isNodeLost(
          world.nodes.find((n) => n.node.id === r.nodeId),
          world.nowMs,
          policy,
        ),
    );
    expect(counting.length, `${where}: ${name} above max`).toBeLessThanOrEqual(
      model.definition.replicas.max,
    );
    const refused = actions.some((a) => a.kind === "unplaceable" && a.model === name);
    const health = world.health.get(name);
    const isParked = health?.isParked ?? false;
    // A model whose starts keep failing waits out its backoff, and only that long.
    const notBefore = health ? replaceNotBeforeMs(health, policy.failureBackoff) : null;
    const isBackingOff = notBefore !== null && world.nowMs < notBefore;
    if (!refused && !isParked && !isBackingOff)
      expect(counting.length, `${where}: ${name} below min with room`).toBeGreaterThanOrEqual(
        model.definition.replicas.min,
      );
    if (world.alwaysFails.has(name))
      expect(
        world.health.get(name)?.consecutiveFailures ?? 0,
        `${where}: ${name} failed past parking`,
      ).toBeLessThanOrEqual(policy.failuresToPark);
  }
}

function simulate(seed: number, ticks: number): World {
  const world: World = {
    random: prng(seed),
    nowMs: 0,
    nodes: [],
    models: [],
    health: new Map(),
    replicas: new Map(),
    alwaysFails: new Set(),
    nextId: 0,
  };
  for (let i = 0; i < 6; i++) world.nodes.push(newNode(world, i));
  for (let i = 0; i < 5; i++) world.models.push(newModel(world, world.nextId++));
  let replicaSeq = 0;
  for (let tick = 0; tick < ticks; tick++) {
    world.nowMs += TICK_MS;
    churn(world);
    advanceEngines(world);
    const { actions } = planReconcile({
      models: world.models,
      health: [...world.health.values()],
      replicas: [...world.replicas.values()],
      nodes: world.nodes,
      nowMs: world.nowMs,
      policy,
      newReplicaId: (m) => `${m}/r${replicaSeq++}`,
    });
    execute(world, actions);
    checkInvariants(world, actions, seed, tick);
  }
  return world;
}

describe("reconcile simulation", () => {
  it.each([1, 2, 3, 7, 42, 1234, 9999, 31337])(
    "holds every invariant for seed %i over 400 ticks",
    (seed) => {
      const world = simulate(seed, 400);
      expect(world.replicas.size).toBeGreaterThan(0);
    },
    // 400 whole reconcile passes: about a second alone, several on a loaded 2-core CI machine.
    30_000,
  );

  it("parks a model whose engine never gets ready after exactly five starts", () => {
    const world = simulate(5, 1);
    world.alwaysFails.add("m0");
    // Five failed starts with the backoff between them (2 + 4 + 8 + 8 s) fit in 60 ticks.
    for (let tick = 0; tick < 60; tick++) {
      world.nowMs += TICK_MS;
      advanceEngines(world);
      let seq = 0;
      const { actions } = planReconcile({
        models: world.models,
        health: [...world.health.values()],
        replicas: [...world.replicas.values()],
        nodes: world.nodes,
        nowMs: world.nowMs,
        policy,
        only: ["m0"],
        newReplicaId: (m) => `${m}/x${tick}-${seq++}`,
      });
      execute(world, actions);
    }
    const m0 = world.models.find((m) => m.definition.name === "m0");
    const health = world.health.get("m0");
    if (
      m0 &&
      m0.definition.replicas.min > 0 &&
      [...world.replicas.values()].some((r) => r.model === "m0")
    ) {
      expect(health).toMatchObject({
        isParked: true,
        consecutiveFailures: 5,
        lastError: "engine never became ready",
      });
    }
  });
});
