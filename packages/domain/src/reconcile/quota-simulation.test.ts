// A seeded week, minute by minute, of teams sharing a mixed fleet under quotas: demand by working
// hours and nights, queue-driven autoscaling, on-demand models asked for and left idle, engines
// that take a minute per phase and sometimes fail. After every step the named invariants must
// hold; a failing seed replays exactly.
import { describe, expect, it } from "vitest";
import { placedReplica } from "./test-fixtures";
import { quotaUsage } from "../quota/accounting";
import { seededRandom } from "../seeded-random";
import { decideAutoscale } from "./autoscale";
import { guaranteedReplicas } from "./guarantees";
import { planReconcile } from "./plan";
import { baseReplicas } from "./plan-model";
import { createQuotaPass } from "./quota-pass";
import {
  NODES,
  POLICY,
  QUOTAS,
  STEP_MS,
  WEEK_STEPS,
  demandAt,
  newWorld,
  type SimWorld,
} from "./quota-simulation-world";
import type { ReconcileAction, ReconcileInput } from "./types";

const TAKEN_BACK = /^borrowed capacity taken back for (\S+) \(model (\S+)\)$/;
/** Fails the test with the message; vitest's expect is too slow to call ten thousand times a week. */
function check(isTrue: boolean, message: string): void {
  if (!isTrue) expect.fail(message);
}

const live = (world: SimWorld) => [...world.replicas.values()].filter((r) => r.phase !== "stopped");

/** Engines move a phase a minute; one start in fifty fails. Ready replicas serve the demand. */
function advance(world: SimWorld, demand: Map<string, number>): void {
  for (const replica of live(world)) {
    if (replica.phase === "placing") replica.phase = "starting";
    else if (replica.phase === "starting") {
      const fails = world.random() < 0.02;
      replica.phase = fails ? "failed" : "ready";
      replica.message = fails ? "engine crashed while loading" : "";
    }
  }
  for (const { model } of world.models) {
    const name = model.definition.name;
    const rate = demand.get(name) ?? 0;
    const ready = live(world).filter((r) => r.model === name && r.phase === "ready");
    if (rate > 0 && model.definition.on_demand) model.demandedAtMs = world.nowMs;
    for (const replica of ready) {
      replica.inFlight = rate > 0 ? Math.ceil(rate / ready.length) : 0;
      if (rate > 0) replica.lastUsedAtMs = world.nowMs;
      else replica.lastUsedAtMs ??= replica.createdAtMs;
    }
  }
}

interface StepRecord {
  atMs: number;
  direction: "up" | "down";
}

/** Queue-driven autoscaling, as the reconciler runs it every tick; returns this step's steps. */
function autoscale(world: SimWorld, demand: Map<string, number>): Map<string, "up" | "down"> {
  const steps = new Map<string, "up" | "down">();
  for (const sim of world.models) {
    const { model, capacity } = sim;
    const name = model.definition.name;
    const mine = live(world).filter((r) => r.model === name);
    const ready = mine.filter((r) => r.phase === "ready").length;
    const rate = demand.get(name) ?? 0;
    const decision = decideAutoscale({
      base: baseReplicas(model, world.nowMs, POLICY.onDemandIdleMs),
      max: model.definition.replicas.max,
      load: { waiting: Math.max(0, rate - capacity * ready), running: rate, ready },
      pending: mine.filter((r) => r.phase === "placing" || r.phase === "starting").length,
      nowMs: world.nowMs,
      settings: { waitingPerReplica: 1, upAfterMs: 60_000, downAfterMs: 600_000 },
      state: world.autoscale.get(name) ?? decisionlessState(),
    });
    world.autoscale.set(name, decision.state);
    model.autoscaleAdded = decision.state.added;
    if (decision.step !== "hold") steps.set(name, decision.step);
  }
  return steps;
}

const decisionlessState = () => ({
  added: 0,
  busySinceMs: null,
  quietSinceMs: null,
  lastStep: null,
});

function execute(world: SimWorld, actions: readonly ReconcileAction[]): void {
  for (const action of actions) {
    if (action.kind === "place") {
      world.replicas.set(action.replicaId, placedReplica(action, world.nowMs));
    } else if (action.kind === "stop") {
      const replica = world.replicas.get(action.replicaId);
      if (replica) replica.phase = "stopped";
    } else if (action.kind === "count-failure") {
      const health = world.health.get(action.model);
      world.health.set(action.model, {
        name: action.model,
        consecutiveFailures: (health?.consecutiveFailures ?? 0) + 1,
        isParked: false,
        lastError: action.error,
        revision: action.revision,
        lastFailureAtMs: world.nowMs,
      });
    } else if (action.kind === "reset-failures") world.health.delete(action.model);
  }
}

/** Stops that take room for another scope never touch a replica within its guarantee. */
function checkTakenOnlyBorrowed(input: ReconcileInput, actions: readonly ReconcileAction[]) {
  if (!actions.some((a) => a.kind === "stop")) return;
  const pass = createQuotaPass(input, new Map(input.models.map((m) => [m.definition.name, m])));
  if (!pass) throw new Error("the simulation has quotas");
  const covered = guaranteedReplicas(pass, input.replicas);
  const taking = actions.filter(
    (a) => a.kind === "stop" && (TAKEN_BACK.test(a.reason) || a.reason.startsWith("idle;")),
  );
  for (const stop of taking)
    if (stop.kind === "stop")
      check(!covered.has(stop.replicaId), `${stop.replicaId} was within its guarantee`);
}

/** Cards each node has free, or held by a replica another scope could be made to give back. */
function roomToTake(
  input: ReconcileInput,
  actions: readonly ReconcileAction[],
  owner: string,
  covered: ReadonlySet<string>,
): Map<string, number> {
  const stopped = new Set(actions.flatMap((a) => (a.kind === "stop" ? [a.replicaId] : [])));
  const usedNodes = new Set(
    actions.flatMap((a) => (a.kind === "stop" && TAKEN_BACK.test(a.reason) ? [a.nodeId] : [])),
  );
  const held = new Map<string, Set<number>>();
  const hold = (nodeId: string, cards: readonly number[]) => {
    const set = held.get(nodeId) ?? new Set<number>();
    for (const card of cards) set.add(card);
    held.set(nodeId, set);
  };
  const chainOf = (model: string) =>
    input.models.find((m) => m.definition.name === model)?.ownerChain ?? [];
  for (const r of input.replicas) {
    const chain = chainOf(r.model);
    const mayGo = chain.length > 0 && !chain.includes(owner) && !covered.has(r.id);
    if (!mayGo || stopped.has(r.id)) hold(r.nodeId, r.gpuIndexes);
  }
  for (const a of actions)
    if (a.kind === "place") for (const s of a.shards) hold(s.nodeId, s.cardIndexes);
  return new Map(
    NODES.filter((n) => !usedNodes.has(n.node.id)).map((n) => [
      n.node.id,
      n.node.cards.filter((c) => !held.get(n.node.id)?.has(c.index)).length,
    ]),
  );
}

/**
 * A model refused room while its next replica would stay within a guarantee of its chain, and
 * room could be taken back from other scopes' borrowed replicas, is a take-back missed.
 */
function checkNoTakeBackMissed(
  input: ReconcileInput,
  actions: readonly ReconcileAction[],
  where: string,
): void {
  const refused = actions.flatMap((a) => (a.kind === "unplaceable" ? [a.model] : []));
  if (refused.length === 0) return;
  const usage = quotaUsage({ ...input, quotas: QUOTAS });
  const pass = createQuotaPass(input, new Map(input.models.map((m) => [m.definition.name, m])));
  const covered = pass ? guaranteedReplicas(pass, input.replicas) : new Set<string>();
  for (const name of refused) {
    const model = input.models.find((m) => m.definition.name === name);
    const profile = model?.definition.profiles[0];
    const chain = model?.ownerChain ?? [];
    const owner = chain.at(-1);
    if (!profile || typeof profile.gpu !== "string" || owner === undefined) continue;
    const gpus = profile.gpus ?? 1;
    const resource = `gpus:${profile.gpu}`;
    const lineOf = (scope: string) =>
      usage.find((u) => u.scope === scope)?.lines.find((l) => l.resource === resource);
    const isGuaranteed = chain.some((scope) => {
      const line = lineOf(scope);
      return line !== undefined && line.held + gpus <= line.guaranteed;
    });
    const isLimited = chain.some((scope) => {
      const line = lineOf(scope);
      return line?.limit != null && line.held + gpus > line.limit;
    });
    if (!isGuaranteed || isLimited) continue;
    const room = roomToTake(input, actions, owner, covered);
    for (const node of NODES) {
      if (!node.node.cards.some((c) => c.gpuClass === profile.gpu)) continue;
      check(
        (room.get(node.node.id) ?? 0) < gpus,
        `${where}: ${name} could have taken ${node.node.id} back`,
      );
    }
  }
}

function checkLimitsAndMax(world: SimWorld, where: string): void {
  const replicas = live(world);
  const usage = quotaUsage({
    quotas: QUOTAS,
    models: world.models.map((s) => s.model),
    replicas,
    nodes: NODES,
  });
  for (const scope of usage)
    for (const line of scope.lines)
      if (line.limit !== null)
        expect(
          line.held,
          `${where}: ${scope.scope} above its ${line.resource} limit`,
        ).toBeLessThanOrEqual(line.limit);
  for (const { model } of world.models) {
    const count = replicas.filter(
      (r) => r.model === model.definition.name && r.phase !== "failed",
    ).length;
    check(count <= model.definition.replicas.max, `${where}: ${model.definition.name} above max`);
  }
}

/** No step reverses an up sooner than down_after, and a model takes one step a minute at most. */
function checkNoFlapping(
  history: Map<string, StepRecord>,
  steps: Map<string, "up" | "down">,
  where: string,
  nowMs: number,
): void {
  for (const [name, direction] of steps) {
    const last = history.get(name);
    if (last && last.direction === "up" && direction === "down")
      check(nowMs - last.atMs >= 600_000, `${where}: ${name} reversed its step`);
    history.set(name, { atMs: nowMs, direction });
  }
}

interface Tally {
  takenBack: number;
  evicted: number;
  placedAfterTakeBack: number;
}

function simulateWeek(seed: number): Tally {
  const world = newWorld(seededRandom(seed));
  const history = new Map<string, StepRecord>();
  const tally: Tally = { takenBack: 0, evicted: 0, placedAfterTakeBack: 0 };
  let waitingFor = new Set<string>();
  for (let step = 0; step < WEEK_STEPS; step++) {
    world.nowMs += STEP_MS;
    const where = `seed ${seed} minute ${step}`;
    const demand = new Map(
      world.models.map((sim) => [
        sim.model.definition.name,
        demandAt(sim, world.nowMs, world.random),
      ]),
    );
    advance(world, demand);
    checkNoFlapping(history, autoscale(world, demand), where, world.nowMs);
    const input: ReconcileInput = {
      models: world.models.map((sim) => sim.model),
      health: [...world.health.values()],
      replicas: live(world),
      nodes: NODES,
      nowMs: world.nowMs,
      policy: POLICY,
      quotas: QUOTAS,
      newReplicaId: (model) => `${model}/r${world.nextReplica++}`,
    };
    const { actions } = planReconcile(input);
    checkTakenOnlyBorrowed(input, actions);
    checkNoTakeBackMissed(input, actions, where);
    // Room taken back in one pass is used by the model it was taken for in the next.
    for (const model of waitingFor) {
      const placed = actions.some((a) => a.kind === "place" && a.model === model);
      check(placed, `${where}: ${model} not placed after room was taken back`);
      tally.placedAfterTakeBack += 1;
    }
    waitingFor = new Set();
    for (const action of actions) {
      if (action.kind !== "stop") continue;
      const taken = TAKEN_BACK.exec(action.reason);
      if (taken?.[2]) waitingFor.add(taken[2]);
      if (taken) tally.takenBack += 1;
      if (action.reason.startsWith("idle;")) tally.evicted += 1;
    }
    execute(world, actions);
    checkLimitsAndMax(world, where);
    // Stopped replicas are gone for good; keeping them would only slow the week down.
    for (const [id, replica] of world.replicas)
      if (replica.phase === "stopped") world.replicas.delete(id);
  }
  return tally;
}

// About a second a week on a quiet machine; the limit leaves room for a busy one.
const WEEK_TIMEOUT_MS = 60_000;

describe("quota simulation: a week of demand from several teams", () => {
  it.each([7, 2026])(
    "holds every invariant, minute by minute, for seed %i",
    (seed) => {
      const tally = simulateWeek(seed);
      // The week must exercise what it checks: borrowing taken back and used, and idle eviction.
      expect(tally.takenBack).toBeGreaterThan(0);
      expect(tally.placedAfterTakeBack).toBeGreaterThan(0);
      expect(tally.evicted).toBeGreaterThan(0);
    },
    WEEK_TIMEOUT_MS,
  );
});
