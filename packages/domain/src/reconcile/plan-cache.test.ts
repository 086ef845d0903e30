// Planning with a cache kept between passes must decide exactly what planning without one does:
// a seeded day of the quota simulation's world (models under quotas, engines that fail, demand that
// comes and goes), with nodes that sometimes go unreachable, drain or come back as new objects,
// planned both ways at every step from the same state.
import { describe, expect, it } from "vitest";
import { seededRandom, type RandomFn } from "../seeded-random";
import { createPlanCache } from "./plan-cache";
import { planReconcile } from "./plan";
import {
  NODES,
  POLICY,
  QUOTAS,
  STEP_MS,
  demandAt,
  newWorld,
  type SimWorld,
} from "./quota-simulation-world";
import { placedReplica } from "./test-fixtures";
import type { ReconcileAction, ReconcileInput, ReconcileNode } from "./types";

function execute(world: SimWorld, actions: readonly ReconcileAction[]): void {
  for (const action of actions) {
    if (action.kind === "place")
      world.replicas.set(action.replicaId, placedReplica(action, world.nowMs));
    else if (action.kind === "stop") world.replicas.delete(action.replicaId);
    else if (action.kind === "count-failure")
      world.health.set(action.model, {
        name: action.model,
        consecutiveFailures: (world.health.get(action.model)?.consecutiveFailures ?? 0) + 1,
        isParked: false,
        lastError: action.error,
        revision: action.revision,
        lastFailureAtMs: world.nowMs,
      });
    else if (action.kind === "reset-failures") world.health.delete(action.model);
  }
}

function advance(world: SimWorld): void {
  for (const replica of world.replicas.values()) {
    if (replica.phase === "placing") replica.phase = "starting";
    else if (replica.phase === "starting") {
      const fails = world.random() < 0.05;
      replica.phase = fails ? "failed" : "ready";
      replica.message = fails ? "engine crashed while loading" : "";
    }
  }
  for (const sim of world.models) {
    const rate = demandAt(sim, world.nowMs, world.random);
    if (rate > 0) sim.model.demandedAtMs = world.nowMs;
    for (const replica of world.replicas.values())
      if (replica.model === sim.model.definition.name) {
        replica.inFlight = rate > 0 ? 1 : 0;
        if (rate > 0) replica.lastUsedAtMs = world.nowMs;
      }
  }
}

/**
 * Most steps keep the node objects; some replace one: unreachable, draining, as it was, remade by
 * a heartbeat (new free disk and measured draw), or with a card fewer (which the index counted).
 */
function nextNodes(random: RandomFn, nodes: readonly ReconcileNode[], nowMs: number) {
  if (random() < 0.8) return nodes;
  const next = [...nodes];
  const at = Math.floor(random() * next.length);
  const base = NODES[at] as ReconcileNode;
  const change = random();
  next[at] =
    change < 0.2
      ? { node: { ...base.node, isReachable: false }, unreachableSinceMs: nowMs - 60_000 }
      : change < 0.35
        ? { node: { ...base.node, drain: "drained for the test" }, unreachableSinceMs: null }
        : change < 0.5
          ? { node: { ...base.node }, unreachableSinceMs: null }
          : change < 0.75
            ? {
                node: {
                  ...base.node,
                  diskGbFree: Math.floor(random() * 1_000),
                  cards: base.node.cards.map((card) => ({
                    ...card,
                    drawWatts: 300 + Math.floor(random() * 400),
                  })),
                },
                unreachableSinceMs: null,
              }
            : { node: { ...base.node, cards: base.node.cards.slice(1) }, unreachableSinceMs: null };
  return next;
}

function planBothWays(
  seed: number,
  steps: number,
): { reused: number; built: number; refreshed: number } {
  const world = newWorld(seededRandom(seed));
  const random = seededRandom(seed + 1);
  const cache = createPlanCache();
  let nodes: readonly ReconcileNode[] = NODES;
  for (let step = 0; step < steps; step += 1) {
    world.nowMs += STEP_MS;
    advance(world);
    nodes = nextNodes(random, nodes, world.nowMs);
    const first = world.nextReplica;
    const input = (): ReconcileInput => {
      let next = first;
      return {
        models: world.models.map((sim) => sim.model),
        health: [...world.health.values()],
        replicas: [...world.replicas.values()],
        nodes,
        nowMs: world.nowMs,
        policy: POLICY,
        quotas: QUOTAS,
        newReplicaId: (model) => `${model}/r${(next += 1)}`,
      };
    };
    const without = planReconcile(input()).actions;
    const kept = planReconcile({ ...input(), cache }).actions;
    expect(kept, `seed ${seed} step ${step}`).toEqual(without);
    world.nextReplica += without.filter((action) => action.kind === "place").length;
    execute(world, without);
  }
  const { reused, built, refreshed } = cache.fleet;
  return { reused, built, refreshed };
}

describe("planning with a cache kept between passes", () => {
  it("decides what planning without one does, pass after pass (seeded)", () => {
    let reused = 0;
    let built = 0;
    let refreshed = 0;
    for (const seed of [3, 17, 4242]) {
      const counts = planBothWays(seed, 400);
      reused += counts.reused;
      built += counts.built;
      refreshed += counts.refreshed;
    }
    // Passes that placed over a kept index, passes that had to build one, and nodes taken into a
    // kept index as new objects all happened.
    expect(reused).toBeGreaterThan(50);
    expect(built).toBeGreaterThan(20);
    expect(refreshed).toBeGreaterThan(50);
    // Seconds on a quiet machine; the default 5 s is short on a loaded one.
  }, 120_000);
});
