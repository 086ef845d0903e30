// The level-triggered loop. Events (a catalog swap, an agent registering or leaving, a phase
// change, a retry) only mark a model dirty; one loop drains the dirty set a model at a time, and
// a periodic resync marks every model, so a lost event or a node going lost with time is caught.
import { createPlanCache, planReconcile, type ObservedReplica, messageOf } from "@llmgw/domain";
import { randomBytes } from "node:crypto";
import { KeptNodes } from "../fleet/kept-nodes";
import { reconcileNodes } from "../fleet/placement-nodes";
import type { ReconcileDeps } from "./deps";
import { Autoscaler } from "./autoscaler";
import { executeActions } from "./execute";
import { carryOutReport } from "./frames";
import { PlacementWarnings } from "./placement-warnings";
import type { ReportDecision, ReportSink } from "./reports";

/** Stopped replicas are kept this long for `ctl replicas` and then forgotten. */
const STOPPED_KEPT_MS = 10 * 60_000;

/** Agent reports mark models dirty and hand over the frames they call for (`ReportSink`). */
export interface Reconciler extends ReportSink {
  markDirty(model: string): void;
  /** Sends the frame an agent's report calls for, at once, the way the plan's own are sent. */
  carryOut(decision: ReportDecision): void;
  markAll(): void;
  /**
   * Reads quotas and owner chains from the store again and plans every model: call it after a
   * quota or a model's owner changes.
   */
  reloadQuotas(): Promise<void>;
  /** Replicas autoscaling added above the model's base so far. */
  autoscaleAdded(model: string): number;
  /** Resolves when the dirty set is empty and no pass is running (for tests and shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** The role label value (`llmgw.role=judge`) of nodes set aside for guard judges. */
const JUDGE_ROLE = "judge";

function newReplicaId(model: string): string {
  return `${model}-${randomBytes(4).toString("hex")}`;
}

/**
 * When the model was last asked for: the gateway's record, or a live replica's last use. A live
 * replica never used (or not since a restart) counts from its creation: unknown is not idle.
 */
function lastDemand(
  deps: ReconcileDeps,
  model: string,
  replicas: readonly ObservedReplica[],
): number | null {
  let latest = deps.demand.lastAt(model);
  for (const r of replicas) {
    if (r.model !== model || r.phase === "stopped") continue;
    const used = deps.book.get(r.id)?.lastUsedAtMs ?? r.createdAtMs;
    latest = latest === null ? used : Math.max(latest, used);
  }
  return latest;
}

/**
 * The replicas with what idle eviction reads. This process has seen every request since it began
 * leading, and nothing before: a replica's last use counts from then at the earliest, so what a
 * restarted router does not know is never taken for idle.
 */
function withUse(deps: ReconcileDeps, nowMs: number): ObservedReplica[] {
  return deps.book.all().map((record) => ({
    ...record,
    lastUsedAtMs: Math.max(record.lastUsedAtMs ?? record.createdAtMs, deps.startedAtMs),
    inFlight: deps.load.inFlightOf(record.id, nowMs),
  }));
}

/**
 * The live nodes as planning reads them, with those the book still places replicas on; a node
 * whose record is unchanged since the last pass is handed over as the same object (`kept`).
 */
function nodesNow(deps: ReconcileDeps, kept: KeptNodes, nowMs: number) {
  const nodes = reconcileNodes(
    deps.registry,
    new Set(deps.book.active().map((r) => r.nodeId)),
    nowMs,
    deps.liveness,
    deps.startedAtMs,
    { restartGraceMs: deps.restartGraceMs, lostAfterMs: deps.policy.lostAfterMs },
    kept,
  );
  return kept.keep(nodes);
}

export function startReconciler(deps: ReconcileDeps, resyncIntervalMs: number): Reconciler {
  const dirty = new Set<string>();
  const warnings = new PlacementWarnings();
  const autoscaler = new Autoscaler(deps, deps.load);
  // The node map and placement index, reused by the next pass while the nodes are unchanged, and
  // the node records, kept so that unchanged nodes are the same objects pass after pass.
  const planCache = createPlanCache();
  const keptNodes = new KeptNodes();
  let running: Promise<void> | null = null;
  let isStopped = false;

  /**
   * Plans the given models in one pass (one placement index for all of them, placements written
   * together) and carries the plan out. A resync marks every model, so at scale this is one pass
   * instead of one per model.
   */
  const reconcileModels = async (names: readonly string[]): Promise<void> => {
    // Owners named since the last pass are looked up first; the rest is read after, in one go.
    await deps.quotas.resolve(deps.catalog.current().models);
    const nowMs = deps.nowMs();
    const catalog = deps.catalog.current();
    const replicas = withUse(deps, nowMs);
    const nodes = nodesNow(deps, keptNodes, nowMs);
    const demanded = catalog.models.map((definition) => ({
      definition,
      revision: deps.catalog.meta(definition.name)?.revision ?? 1,
      demandedAtMs: lastDemand(deps, definition.name, replicas),
    }));
    const scaling = autoscaler.decide(demanded, names, replicas, nowMs);
    const judges = deps.judgeModels?.current();
    const models = demanded.map((model) => ({
      ...model,
      ownerChain: deps.quotas.chainOf(model.definition),
      preferredRole: judges?.has(model.definition.name) ? JUDGE_ROLE : undefined,
      autoscaleAdded:
        scaling.decisions.get(model.definition.name)?.state.added ??
        autoscaler.added(model.definition.name),
    }));
    const { actions } = planReconcile({
      models,
      health: deps.health.all(),
      replicas,
      nodes,
      nowMs,
      policy: deps.policy,
      quotas: deps.quotas.quotas(),
      only: names,
      cache: planCache,
      newReplicaId,
    });
    const unplaceable = new Set(
      actions.flatMap((a) => (a.kind === "unplaceable" ? [a.model] : [])),
    );
    for (const name of names) {
      if (unplaceable.has(name) || !deps.unplaceable.delete(name)) continue;
      warnings.clear(name);
      // The episode ends; a removed model simply has nothing more to say.
      if (catalog.get(name)) deps.events.record("model.placeable", name, { model: name });
    }
    // The plan was made from memory; a leader that slept past its lease must not carry it out.
    if (!(await deps.leadership.confirm())) {
      for (const name of names) dirty.add(name);
      return;
    }
    autoscaler.commit(scaling, new Set(catalog.models.map((m) => m.name)));
    await executeActions(deps, warnings, actions);
  };

  const drain = async (): Promise<void> => {
    // A standby keeps its dirty set: on taking over it reloads and marks everything anyway.
    while (dirty.size > 0 && !isStopped && deps.leadership.isLeader()) {
      const batch = [...dirty];
      dirty.clear();
      try {
        await reconcileModels(batch);
      } catch (error) {
        if (batch.length === 1) {
          deps.log(`reconciling ${batch[0]} failed: ${messageOf(error)}`);
          continue;
        }
        // One model's failure must not hold the others back: plan them one at a time, from the
        // state the failed pass left (what it already did is in the book, so nothing repeats).
        for (const name of batch) {
          if (isStopped) break;
          try {
            await reconcileModels([name]);
          } catch (each) {
            deps.log(`reconciling ${name} failed: ${messageOf(each)}`);
          }
        }
      }
    }
  };

  const kick = (): void => {
    if (running || isStopped) return;
    running = drain().finally(() => {
      running = null;
      if (dirty.size > 0 && deps.leadership.isLeader()) kick();
    });
  };

  const markAll = (): void => {
    for (const model of deps.catalog.current().models) dirty.add(model.name);
    for (const record of deps.book.active()) dirty.add(record.model);
    kick();
  };

  const timer = setInterval(() => {
    if (!deps.leadership.isLeader()) return;
    markAll();
    void deps.book.prune(deps.nowMs() - STOPPED_KEPT_MS);
    deps.load.keepOnly(new Set(deps.book.active().map((r) => r.id)));
  }, resyncIntervalMs);
  timer.unref();
  markAll();

  return {
    markDirty(model) {
      dirty.add(model);
      kick();
    },
    markAll,
    async reloadQuotas() {
      await deps.quotas.reload(deps.catalog.current().models);
      markAll();
    },
    autoscaleAdded: (model) => autoscaler.added(model),
    carryOut: (decision) => carryOutReport(deps, decision),
    async idle() {
      while (running) await running;
    },
    async stop() {
      isStopped = true;
      clearInterval(timer);
      while (running) await running;
      await deps.book.flush();
    },
  };
}
