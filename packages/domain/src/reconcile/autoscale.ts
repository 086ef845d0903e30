// Autoscaling on queue depth: whether a model gets one replica more, one fewer, or stays, from
// the requests its ready replicas report waiting. Pure: the reconciler keeps the state between
// ticks and hands it back, so a simulated week runs in milliseconds with the same decisions.
//
// A replica here is minutes of weights and gigabytes of memory, so the rules lean to holding: a
// queue must last `upAfterMs` before one is added, nothing may wait for `downAfterMs` before one
// of those added goes, one step at a time, and never while the last one added is still starting.

import type { ModelDefinition } from "../catalog/model-definition";

export interface AutoscaleSettings {
  /** Waiting requests per ready replica that count as a queue (the definition's default: 1). */
  waitingPerReplica: number;
  /** How long the queue must last before a replica is added. */
  upAfterMs: number;
  /** How long nothing may wait before a replica autoscaling added is removed. */
  downAfterMs: number;
}

export const DEFAULT_AUTOSCALE: AutoscaleSettings = {
  waitingPerReplica: 1,
  upAfterMs: 60_000,
  downAfterMs: 10 * 60_000,
};

/** The model's settings, defaults filled; null when its max leaves no room above its min. */
export function autoscaleSettingsOf(definition: ModelDefinition): AutoscaleSettings | null {
  if (definition.external || definition.replicas.max <= definition.replicas.min) return null;
  const given = definition.autoscale;
  if (!given) return DEFAULT_AUTOSCALE;
  return {
    waitingPerReplica: given.waiting_per_replica,
    upAfterMs: given.up_after_ms,
    downAfterMs: given.down_after_ms,
  };
}

/** What the reconciler keeps per model between ticks. */
export interface AutoscaleState {
  /** Replicas autoscaling added above the base; only these are ever removed. */
  added: number;
  /** Since when the queue has stayed at or above the threshold; null: it is not now. */
  busySinceMs: number | null;
  /** Since when nothing has waited; null: something waits now, or the queue is unknown. */
  quietSinceMs: number | null;
  lastStep: { atMs: number; direction: "up" | "down" } | null;
}

export const INITIAL_AUTOSCALE_STATE: AutoscaleState = {
  added: 0,
  busySinceMs: null,
  quietSinceMs: null,
  lastStep: null,
};

/** The load behind a decision: sums over the model's ready replicas; null where none told. */
export interface AutoscaleLoad {
  waiting: number | null;
  running: number | null;
  ready: number;
}

export interface AutoscaleInput {
  /** Replicas the model wants without autoscaling (its min, or 1 for an on-demand model in use). */
  base: number;
  max: number;
  load: AutoscaleLoad;
  /** The model's replicas placing, fetching or starting now. */
  pending: number;
  nowMs: number;
  settings: AutoscaleSettings;
  state: AutoscaleState;
}

export type AutoscaleStep = "up" | "down" | "hold";

export interface AutoscaleDecision {
  step: AutoscaleStep;
  /** Why, in a sentence for the log. */
  reason: string;
  load: AutoscaleLoad;
  /** Replicas wanted before and after the decision (base + added). */
  from: number;
  to: number;
  state: AutoscaleState;
}

/** Whether the queue is at the threshold (true), clear (false), or unknown (null). */
function queueReading(load: AutoscaleLoad, settings: AutoscaleSettings): boolean | null {
  // No ready replica or no engine that answered: unknown, never idle and never busy.
  if (load.ready === 0 || load.waiting === null) return null;
  if (load.waiting === 0) return false;
  return load.waiting / load.ready >= settings.waitingPerReplica;
}

/** The timers after this tick's reading: a reading that breaks a spell starts it again. */
function track(input: AutoscaleInput, added: number): AutoscaleState {
  const { state, nowMs } = input;
  const busy = queueReading(input.load, input.settings);
  return {
    ...state,
    added,
    busySinceMs: busy === true ? (state.busySinceMs ?? nowMs) : null,
    quietSinceMs:
      input.load.waiting === 0 && input.load.ready > 0 ? (state.quietSinceMs ?? nowMs) : null,
  };
}

function wantsUp(input: AutoscaleInput, tracked: AutoscaleState): string | null {
  const { nowMs, settings } = input;
  if (tracked.busySinceMs === null) return null;
  if (nowMs - tracked.busySinceMs < settings.upAfterMs)
    return "the queue has not lasted long enough";
  if (input.base + tracked.added >= input.max) return `the model is at its max ${input.max}`;
  if (input.pending > 0) return "a replica is still placing or starting";
  const last = tracked.lastStep;
  if (last && nowMs - last.atMs < settings.upAfterMs) return "the last step was too recent";
  return "";
}

function wantsDown(input: AutoscaleInput, tracked: AutoscaleState): string | null {
  const { nowMs, settings } = input;
  if (tracked.quietSinceMs === null || tracked.added === 0) return null;
  if (nowMs - tracked.quietSinceMs < settings.downAfterMs) return null;
  const last = tracked.lastStep;
  // Never undo a step, nor take a second one down, sooner than down_after after the last.
  if (last && nowMs - last.atMs < settings.downAfterMs) return "the last step was too recent";
  return "";
}

/**
 * One tick of the autoscaler for one model. Returns the step to take and the state to keep. A
 * model whose base is 0 (an on-demand model nobody uses) or whose max leaves no room above its
 * base forgets what it added: there is nothing to scale.
 */
export function decideAutoscale(input: AutoscaleInput): AutoscaleDecision {
  const room = Math.max(0, input.max - input.base);
  // A lowered max takes back what no longer fits, without a step of its own.
  const added = input.base === 0 ? 0 : Math.min(input.state.added, room);
  const tracked = track(input, added);
  const from = input.base + added;
  const result = (step: AutoscaleStep, reason: string, state: AutoscaleState) => ({
    step,
    reason,
    load: input.load,
    from,
    to: from + (step === "up" ? 1 : step === "down" ? -1 : 0),
    state,
  });
  if (input.base === 0 || room === 0)
    return result("hold", "autoscaling needs a base of 1 or more and max above it", tracked);
  const up = wantsUp(input, tracked);
  if (up === "") {
    const lastStep = { atMs: input.nowMs, direction: "up" as const };
    // A further replica needs a queue that lasts again, counted from now.
    return result("up", "requests have waited on every ready replica for up_after", {
      ...tracked,
      added: added + 1,
      busySinceMs: input.nowMs,
      lastStep,
    });
  }
  const down = wantsDown(input, tracked);
  if (down === "") {
    const lastStep = { atMs: input.nowMs, direction: "down" as const };
    return result("down", "nothing has waited for down_after", {
      ...tracked,
      added: added - 1,
      quietSinceMs: input.nowMs,
      lastStep,
    });
  }
  return result("hold", up ?? down ?? "the queue is below the threshold", tracked);
}
