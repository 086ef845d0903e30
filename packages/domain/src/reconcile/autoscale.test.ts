import { describe, expect, it } from "vitest";
import { parseModelDefinition } from "../catalog/model-definition";
import { seededRandom } from "../seeded-random";
import {
  autoscaleSettingsOf,
  decideAutoscale,
  DEFAULT_AUTOSCALE,
  INITIAL_AUTOSCALE_STATE,
  type AutoscaleDecision,
  type AutoscaleInput,
  type AutoscaleState,
} from "./autoscale";

const MINUTE_MS = 60_000;

function tick(overrides: Partial<AutoscaleInput> = {}): AutoscaleDecision {
  return decideAutoscale({
    base: 1,
    max: 3,
    load: { waiting: 0, running: 0, ready: 1 },
    pending: 0,
    nowMs: 0,
    settings: DEFAULT_AUTOSCALE,
    state: INITIAL_AUTOSCALE_STATE,
    ...overrides,
  });
}

/** Feeds the same load every `stepMs` from `fromMs` to `untilMs`; returns the last decision. */
function hold(
  state: AutoscaleState,
  load: AutoscaleInput["load"],
  fromMs: number,
  untilMs: number,
  extra: Partial<AutoscaleInput> = {},
  stepMs = 1_000,
): AutoscaleDecision[] {
  const decisions: AutoscaleDecision[] = [];
  let current = state;
  for (let nowMs = fromMs; nowMs <= untilMs; nowMs += stepMs) {
    const decision = tick({ load, nowMs, state: current, ...extra });
    decisions.push(decision);
    current = decision.state;
  }
  return decisions;
}

const last = <T>(list: T[]): T => {
  const item = list.at(-1);
  if (item === undefined) throw new Error("no decisions");
  return item;
};

describe("decideAutoscale", () => {
  it("adds one replica once a queue of one per ready replica has lasted up_after, not before", () => {
    const busy = { waiting: 2, running: 8, ready: 2 };
    const early = hold(INITIAL_AUTOSCALE_STATE, busy, 0, 59_000);
    expect(early.map((d) => d.step)).not.toContain("up");
    expect(last(early).reason).toBe("the queue has not lasted long enough");
    const then = tick({ load: busy, nowMs: 60_000, state: last(early).state });
    expect(then).toMatchObject({ step: "up", from: 1, to: 2, load: busy });
    expect(then.state).toMatchObject({ added: 1, lastStep: { atMs: 60_000, direction: "up" } });
  });

  it("does not add while the queue per ready replica stays under the threshold", () => {
    const decisions = hold(
      INITIAL_AUTOSCALE_STATE,
      { waiting: 3, running: 16, ready: 4 },
      0,
      300_000,
    );
    expect(decisions.every((d) => d.step === "hold")).toBe(true);
    const doubled = hold(
      INITIAL_AUTOSCALE_STATE,
      { waiting: 4, running: 16, ready: 4 },
      0,
      120_000,
      { settings: { ...DEFAULT_AUTOSCALE, waitingPerReplica: 2 } },
    );
    expect(doubled.every((d) => d.step === "hold")).toBe(true);
  });

  it("starts the minute again when the queue empties in between", () => {
    const first = hold(INITIAL_AUTOSCALE_STATE, { waiting: 5, running: 4, ready: 1 }, 0, 50_000);
    const gap = tick({
      load: { waiting: 0, running: 4, ready: 1 },
      nowMs: 51_000,
      state: last(first).state,
    });
    const second = hold(gap.state, { waiting: 5, running: 4, ready: 1 }, 52_000, 111_000);
    expect(second.map((d) => d.step)).not.toContain("up");
    expect(
      tick({
        load: { waiting: 5, running: 4, ready: 1 },
        nowMs: 112_000,
        state: last(second).state,
      }).step,
    ).toBe("up");
  });

  it("does not add while a replica is still placing or starting", () => {
    const state = { ...INITIAL_AUTOSCALE_STATE, busySinceMs: 0 };
    const decision = tick({
      load: { waiting: 9, running: 4, ready: 1 },
      nowMs: 120_000,
      pending: 1,
      state,
    });
    expect(decision).toMatchObject({
      step: "hold",
      reason: "a replica is still placing or starting",
    });
  });

  it("never goes above max", () => {
    const state = { ...INITIAL_AUTOSCALE_STATE, added: 2, busySinceMs: 0 };
    const decision = tick({ load: { waiting: 90, running: 9, ready: 3 }, nowMs: 600_000, state });
    expect(decision).toMatchObject({
      step: "hold",
      from: 3,
      to: 3,
      reason: "the model is at its max 3",
    });
  });

  it("removes one added replica after down_after with nothing waiting, one at a time, never the base", () => {
    let state: AutoscaleState = { ...INITIAL_AUTOSCALE_STATE, added: 2 };
    const quiet = { waiting: 0, running: 1, ready: 3 };
    const first = hold(state, quiet, 0, 10 * MINUTE_MS, {}, 5_000);
    expect(first.filter((d) => d.step === "down")).toHaveLength(1);
    expect(last(first)).toMatchObject({ step: "down", from: 3, to: 2 });
    state = last(first).state;
    const rest = hold(
      state,
      { ...quiet, ready: 2 },
      10 * MINUTE_MS + 5_000,
      60 * MINUTE_MS,
      {},
      5_000,
    );
    const downs = rest.filter((d) => d.step === "down");
    expect(downs.map((d) => [d.from, d.to])).toEqual([[2, 1]]);
    expect(last(rest).state.added).toBe(0);
    expect(last(rest).to).toBe(1);
  });

  it("takes an unknown queue for neither busy nor idle", () => {
    const unknown = { waiting: null, running: null, ready: 2 };
    const state = { ...INITIAL_AUTOSCALE_STATE, added: 1, quietSinceMs: 0, busySinceMs: 0 };
    const decisions = hold(state, unknown, 0, 20 * MINUTE_MS, {}, 10_000);
    expect(decisions.every((d) => d.step === "hold")).toBe(true);
    expect(last(decisions).state).toMatchObject({ busySinceMs: null, quietSinceMs: null });
    const noneReady = hold(
      state,
      { waiting: 0, running: 0, ready: 0 },
      0,
      20 * MINUTE_MS,
      {},
      10_000,
    );
    expect(noneReady.every((d) => d.step === "hold")).toBe(true);
  });

  it("gives back what no longer fits under a lowered max, and scales nothing with a base of 0", () => {
    const lowered = tick({ max: 2, state: { ...INITIAL_AUTOSCALE_STATE, added: 2 } });
    expect(lowered).toMatchObject({ step: "hold", from: 2, to: 2, state: { added: 1 } });
    const idle = tick({ base: 0, state: { ...INITIAL_AUTOSCALE_STATE, added: 2 } });
    expect(idle).toMatchObject({ step: "hold", from: 0, to: 0, state: { added: 0 } });
  });
});

describe("autoscaleSettingsOf", () => {
  const parse = (extra: Record<string, unknown>) => {
    const parsed = parseModelDefinition({
      name: "m",
      source: "org/m",
      profiles: [{ name: "p", engine: "sim" }],
      ...extra,
    });
    if (!parsed.ok) throw new Error(parsed.errors.join("; "));
    return parsed.model;
  };

  it("is off while max leaves no room above min, and fills the defaults", () => {
    expect(autoscaleSettingsOf(parse({ replicas: { min: 2, max: 2 } }))).toBeNull();
    expect(autoscaleSettingsOf(parse({ replicas: { min: 1, max: 3 } }))).toEqual(DEFAULT_AUTOSCALE);
    expect(
      autoscaleSettingsOf(
        parse({
          replicas: { min: 1, max: 3 },
          autoscale: { up_after_ms: 2_000, down_after_ms: 6_000 },
        }),
      ),
    ).toEqual({ waitingPerReplica: 1, upAfterMs: 2_000, downAfterMs: 6_000 });
  });

  it("refuses settings that make no sense, naming the field", () => {
    const errors = (autoscale: unknown) => {
      const parsed = parseModelDefinition({
        name: "m",
        source: "org/m",
        profiles: [{ name: "p", engine: "sim" }],
        autoscale,
      });
      return parsed.ok ? [] : parsed.errors.join("; ");
    };
    expect(errors({ waiting_per_replica: 0 })).toMatch(/waiting_per_replica must be above 0/);
    expect(errors({ up_after_ms: 10 })).toMatch(/up_after_ms must be at least 1000 ms/);
    expect(errors({ down_after_ms: "10m" })).toMatch(/down_after_ms/);
    expect(errors({ up_after: 60 })).toMatch(/up_after/);
  });
});

describe("a simulated week of load", () => {
  const TICK_MS = 5_000;
  const WEEK_MS = 7 * 24 * 60 * MINUTE_MS;

  /** Load in spells: quiet hours, steady traffic and bursts, each lasting a random while. */
  function simulateWeek(seed: number) {
    const random = seededRandom(seed);
    const base = 1;
    const max = 4;
    let state = INITIAL_AUTOSCALE_STATE;
    let ready = base;
    const startingUntilMs: number[] = [];
    let spellEndsMs = 0;
    let intensity = 0;
    const steps: { atMs: number; step: "up" | "down" }[] = [];
    const outOfBounds: number[] = [];
    for (let nowMs = 0; nowMs < WEEK_MS; nowMs += TICK_MS) {
      if (nowMs >= spellEndsMs) {
        spellEndsMs = nowMs + random() * 40 * MINUTE_MS;
        intensity = [0, 0.3, 1.5, 6][Math.floor(random() * 4)] ?? 0;
      }
      while (startingUntilMs.length && (startingUntilMs[0] ?? 0) <= nowMs) {
        startingUntilMs.shift();
        ready += 1;
      }
      // Noisy: the queue moves around the spell's level, and some scrapes fail.
      const isUnknown = random() < 0.02;
      const waiting = isUnknown ? null : Math.floor(intensity * ready * (0.5 + random()));
      const decision = decideAutoscale({
        base,
        max,
        load: { waiting, running: ready * 4, ready },
        pending: startingUntilMs.length,
        nowMs,
        settings: DEFAULT_AUTOSCALE,
        state,
      });
      state = decision.state;
      if (decision.step === "up") startingUntilMs.push(nowMs + random() * 3 * MINUTE_MS);
      if (decision.step === "down") ready -= 1;
      if (decision.step !== "hold") steps.push({ atMs: nowMs, step: decision.step });
      if (base + state.added > max || state.added < 0) outOfBounds.push(nowMs);
    }
    return { steps, outOfBounds };
  }

  it.each([1, 7, 42])("never flaps (seed %i)", (seed) => {
    const { steps, outOfBounds } = simulateWeek(seed);
    expect(outOfBounds).toEqual([]);
    // The load moved enough to scale both ways, or the checks below would prove nothing.
    expect(steps.filter((s) => s.step === "up").length).toBeGreaterThan(20);
    expect(steps.filter((s) => s.step === "down").length).toBeGreaterThan(20);
    for (let i = 1; i < steps.length; i += 1) {
      const [before, after] = [steps[i - 1], steps[i]];
      if (!before || !after) continue;
      expect(after.atMs - before.atMs).toBeGreaterThanOrEqual(MINUTE_MS);
      if (before.step === "up" && after.step === "down")
        expect(after.atMs - before.atMs).toBeGreaterThanOrEqual(DEFAULT_AUTOSCALE.downAfterMs);
    }
  });
});
