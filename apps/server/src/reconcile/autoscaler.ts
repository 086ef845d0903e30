// Keeps, per model, how many replicas load added above its base, and asks `decideAutoscale` on
// every pass whether to add or remove one. The count lives in memory only: after a restart or a
// takeover the timers start again, and the replicas found above the base count as added.
import {
  autoscaleSettingsOf,
  baseReplicas,
  decideAutoscale,
  INITIAL_AUTOSCALE_STATE,
  type AutoscaleDecision,
  type AutoscaleState,
  type DesiredModel,
  type ObservedReplica,
} from "@llmgw/domain";
import type { EventRecorder } from "../events/event-recorder";
import type { ReconcileDeps } from "./deps";
import type { ReplicaLoadBook } from "./replica-load";

const PENDING_PHASES: ReadonlySet<ObservedReplica["phase"]> = new Set([
  "placing",
  "fetching",
  "starting",
]);

/**
 * Where counting starts for a model the autoscaler has not been counting (after a restart or a
 * takeover): the replicas it finds above the base are taken as added ones, so a new leader under
 * load does not stop them at once; with nothing waiting they go after `down_after` as usual.
 */
function adopted(own: readonly ObservedReplica[], base: number): AutoscaleState {
  const serving = own.filter((r) => r.phase === "ready" || PENDING_PHASES.has(r.phase)).length;
  return { ...INITIAL_AUTOSCALE_STATE, added: Math.max(0, serving - base) };
}

/** This pass's decisions, kept only once the pass is carried out (`commit`). */
export interface AutoscalePass {
  decisions: Map<string, AutoscaleDecision>;
}

/** What it reads of the reconciler's deps; `startedAtMs` is read live (a takeover moves it). */
type AutoscalerDeps = Pick<ReconcileDeps, "policy" | "log" | "startedAtMs"> & {
  events: Pick<EventRecorder, "record">;
};

export class Autoscaler {
  private states = new Map<string, AutoscaleState>();
  /** When the leadership the counts belong to began; a takeover starts them again. */
  private leadingSinceMs: number | null = null;

  constructor(
    private readonly deps: AutoscalerDeps,
    private readonly load: ReplicaLoadBook,
  ) {}

  /** Replicas each model has been given above its base so far. */
  added(model: string): number {
    return this.states.get(model)?.added ?? 0;
  }

  /** Decides for the models of this pass; nothing is kept until `commit`. */
  decide(
    models: readonly DesiredModel[],
    names: readonly string[],
    replicas: readonly ObservedReplica[],
    nowMs: number,
  ): AutoscalePass {
    if (this.leadingSinceMs !== this.deps.startedAtMs) {
      this.states = new Map();
      this.leadingSinceMs = this.deps.startedAtMs;
    }
    const wanted = new Set(names);
    const decisions = new Map<string, AutoscaleDecision>();
    for (const model of models) {
      const { definition } = model;
      if (!wanted.has(definition.name)) continue;
      const settings = autoscaleSettingsOf(definition);
      if (!settings) {
        this.states.delete(definition.name);
        continue;
      }
      const own = replicas.filter((r) => r.model === definition.name);
      const readyIds = own.filter((r) => r.phase === "ready").map((r) => r.id);
      const base = baseReplicas(model, nowMs, this.deps.policy.onDemandIdleMs);
      decisions.set(
        definition.name,
        decideAutoscale({
          base,
          max: definition.replicas.max,
          load: this.load.loadOf(readyIds, nowMs),
          pending: own.filter((r) => PENDING_PHASES.has(r.phase)).length,
          nowMs,
          settings,
          state: this.states.get(definition.name) ?? adopted(own, base),
        }),
      );
    }
    return { decisions };
  }

  /** Keeps the pass's states and records each step as a fleet event with the load behind it. */
  commit(pass: AutoscalePass, catalogNames: ReadonlySet<string>): void {
    for (const name of this.states.keys()) if (!catalogNames.has(name)) this.states.delete(name);
    for (const [model, decision] of pass.decisions) {
      this.states.set(model, decision.state);
      if (decision.step === "hold") continue;
      const { waiting, running, ready } = decision.load;
      const params = { model, from: decision.from, to: decision.to, waiting, running, ready };
      this.deps.events.record(
        decision.step === "up" ? "model.scaled-up" : "model.scaled-down",
        model,
        params,
      );
      this.deps.log(
        `autoscale: ${model} ${decision.from} -> ${decision.to} replicas (${decision.reason}; waiting ${waiting ?? "unknown"}, running ${running ?? "unknown"}, ready ${ready})`,
      );
    }
  }
}
