// Assembles reconciliation: opens the catalog, the replica and health books and the sealed
// replica-key secret, starts the loop, and returns the hooks agent sessions call. main.ts wires it.
import type { PeerModelNames } from "../catalog/store-ops";
import { join } from "node:path";
import type { Database } from "@llmgw/db";
import {
  DEFAULT_RECONCILE_POLICY,
  type LivenessPolicy,
  messageOf,
  type MirrorAddress,
} from "@llmgw/domain";
import type { ReplicaStatus } from "@llmgw/proto";
import type { NodeLinks } from "../agents/node-links";
import { openCatalogStore } from "../catalog/db-catalog-store";
import type { ServerConfig } from "../config";
import type { EventRecorder } from "../events/event-recorder";
import type { FleetRegistry } from "../fleet/registry";
import { loadMasterKey } from "../seal/master-key";
import { API_KEY_PEPPER_SECRET } from "../keys/key-hash";
import { loadOrCreateSecret, REPLICA_KEY_SECRET } from "../seal/sealed-secrets";
import type { FleetView } from "../fleet/fleet-view";
import type { CatalogStore } from "../catalog/catalog-store";
import { DemandBook, type DemandSink } from "./demand";
import type { JudgeModelNames, ReconcileDeps } from "./deps";
import { ModelHealthBook } from "./model-health";
import { startReconciler, type Reconciler } from "./reconciler";
import { ReplicaBook } from "./replica-book";
import { reloadFromStore } from "./store-reload";
import { ReplicaLoadBook, type LoadSink } from "./replica-load";
import { QuotaBook, readQuotaRows } from "./quota-book";
import { createOwnershipResolver } from "../identity/ownership";
import { applyReports, onNodeRegistered } from "./reports";
import { followLeadership, type LeadershipSource } from "../leader/standby";
import { startSharedUse } from "../leader/shared-use";
import { eq, modelDemand } from "@llmgw/db";

/** How often quotas and owner chains are read again (another control plane may change them). */
const QUOTA_RELOAD_MS = 30_000;

export interface ControlPlane {
  /** What the gateway and the API services read of the fleet; they never get `ReconcileDeps`. */
  fleet: FleetView;
  /** Where the gateway records requests for on-demand models. */
  demand: DemandSink;
  /** Where the gateway's scraper records the engines' queues, for the autoscaler. */
  load: LoadSink;
  /** The catalog, for the models service, which writes it. */
  catalog: CatalogStore;
  /** Model health, for the models service's retry, which clears a model's failures. */
  health: Pick<ModelHealthBook, "get" | "reset">;
  /** Quotas, and models' owner chains, as planning last read them (`reconciler.reloadQuotas`). */
  quotas: Pick<QuotaBook, "quotas" | "chainOf">;
  reconciler: Reconciler;
  /** The secret replica keys are derived from, for the gateway; never logged. */
  replicaSecret: Uint8Array;
  /** The sealed pepper API key hashes are keyed with; never logged. */
  apiKeyPepper: Uint8Array;
  /** Seals the secrets people enter (SSO client secret, AD bind password, MCP credentials); never logged. */
  masterKey: Uint8Array;
  onRegistered(nodeId: string, replicas: readonly ReplicaStatus[]): void;
  onReplicaReport(
    nodeId: string,
    replicas: readonly ReplicaStatus[],
    origin: "status" | "heartbeat",
  ): void;
  onDisconnected(nodeId: string): void;
  stop(): Promise<void>;
}

export interface ControlPlaneOptions {
  db: Database;
  config: ServerConfig;
  registry: FleetRegistry;
  links: NodeLinks;
  liveness: LivenessPolicy;
  events: EventRecorder;
  /** The leader lease: only its holder reconciles; the others follow the store. */
  leadership: LeadershipSource;
  /** Which `PEER/MODEL` names a fallback may name (the federation answers, once it started). */
  peerModels?: PeerModelNames;
  /** Which models are a guard policy's judge (the guard answers, once it exists). */
  judgeModels?: JudgeModelNames;
  /** The order nodes are sent the mirrors in (the mirror monitor answers, once it started). */
  mirrorOrder?: { order(): MirrorAddress[] };
  nowMs(): number;
  log(line: string): void;
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const { db, config, log, nowMs } = options;
  const masterKeySource = config.masterKeyBase64
    ? { kind: "env" as const, base64: config.masterKeyBase64 }
    : { kind: "file" as const, path: join(config.homeDir, "master.key") };
  const masterKey = loadMasterKey(masterKeySource);
  const failed = (what: string) => (error: unknown) => log(`${what} failed: ${messageOf(error)}`);
  if (masterKey.created)
    log(
      `created the master key ${join(config.homeDir, "master.key")} (mode 0600); back it up: sealed secrets cannot be read without it`,
    );
  const [catalog, book, health, replicaSecret, apiKeyPepper] = await Promise.all([
    openCatalogStore(db, {
      log,
      nowMs,
      allowPrivateUpstreams: config.gateway.allowPrivateUpstreams,
      keyFileDir: config.gateway.keyFileDir,
      masterKey: masterKey.key,
      peerModels: options.peerModels,
    }),
    ReplicaBook.open(db, log),
    ModelHealthBook.open(db, log),
    loadOrCreateSecret(db, masterKey.key, REPLICA_KEY_SECRET),
    loadOrCreateSecret(db, masterKey.key, API_KEY_PEPPER_SECRET),
  ]);
  // Writes queued while this process led wait for a confirmed lease: a leader frozen mid-write
  // must not put its stale records over the new leader's when it wakes.
  const confirmLeading = () => options.leadership.confirm();
  book.guardWrites(confirmLeading);
  health.guardWrites(confirmLeading);
  const quotas = new QuotaBook(() => readQuotaRows(db), createOwnershipResolver(db), log);
  await quotas.reload(catalog.current().models).catch(failed("reading quotas"));
  // The loop starts after its deps exist; a takeover before that needs no pass of its own.
  const started: { loop?: Reconciler } = {};
  const leadership = followLeadership({
    source: options.leadership,
    reload: () =>
      reloadFromStore({ db, book, health, catalog, quotas, facility: options.registry.facility }),
    tookOver: () => {
      // The grace agents get to come back counts from the takeover: they were connected to the
      // old leader until a moment ago, and a standby's own start may be hours old.
      deps.startedAtMs = nowMs();
      started.loop?.markAll();
    },
    refreshMs: config.standbyRefreshMs,
    log,
  });
  const deps: ReconcileDeps = {
    leadership,
    catalog,
    book,
    health,
    registry: options.registry,
    links: options.links,
    replicaSecret,
    liveness: options.liveness,
    policy: {
      ...DEFAULT_RECONCILE_POLICY,
      lostAfterMs: config.lostAfterMs,
      onDemandIdleMs: config.gateway.onDemandIdleMs,
      failureBackoff: config.failureBackoff,
      evictAfterIdleMs: config.evictAfterIdleMs,
    },
    startTimeoutMs: config.startTimeoutMs,
    startedAtMs: nowMs(),
    restartGraceMs: config.restartGraceMs,
    unplaceable: new Map(),
    events: options.events,
    demand: new DemandBook(),
    load: new ReplicaLoadBook(),
    quotas,
    judgeModels: options.judgeModels,
    mirrorOrder: () => options.mirrorOrder?.order() ?? [],
    nowMs,
    log,
  };
  const loop = startReconciler(deps, config.resyncIntervalMs);
  started.loop = loop;
  const stopSharedUse = startSharedUse({
    ...{ db, book, demand: deps.demand, isLeader: leadership.isLeader, log },
    demanded: (model) => loop.markDirty(model),
    refreshMs: config.standbyRefreshMs,
  });
  const quotaTimer = setInterval(() => {
    if (leadership.isLeader())
      void quotas.reload(catalog.current().models).catch(failed("reading quotas"));
  }, QUOTA_RELOAD_MS);
  quotaTimer.unref();
  const unsubscribe = catalog.subscribe((next, previous) => {
    for (const model of next.models)
      if (previous.get(model.name) !== model) loop.markDirty(model.name);
    for (const model of previous.models) {
      if (next.get(model.name)) continue;
      // A removed model's requests are over: added again, it must not start a replica that
      // nobody asked for since.
      deps.demand.forget(model.name);
      if (leadership.isLeader())
        void db
          .delete(modelDemand)
          .where(eq(modelDemand.model, model.name))
          .catch(failed("forgetting demand"));
      loop.markDirty(model.name);
    }
  });
  return {
    fleet: fleetViewOf(deps, loop),
    demand: deps.demand,
    load: deps.load,
    catalog,
    health,
    quotas,
    reconciler: loop,
    replicaSecret,
    apiKeyPepper,
    masterKey: masterKey.key,
    onRegistered: (nodeId, replicas) => {
      // Agents belong to the leader; a process that lost the lease is closing their sockets.
      if (!options.leadership.isLeader()) return;
      void onNodeRegistered(deps, loop, nodeId, replicas).catch(
        failed(`adopting replicas on ${nodeId}`),
      );
      // A new node is new room: models that could not be placed may fit now.
      loop.markAll();
    },
    onReplicaReport: (nodeId, replicas, origin) => {
      if (!options.leadership.isLeader()) return;
      void applyReports(deps, loop, nodeId, replicas, origin).catch(
        failed(`replica report from ${nodeId}`),
      );
    },
    onDisconnected: () => loop.markAll(),
    async stop() {
      clearInterval(quotaTimer);
      unsubscribe();
      stopSharedUse();
      leadership.stop();
      await loop.stop();
    },
  };
}

/** The read-only face of the reconciler's state, over the same live objects. */
function fleetViewOf(deps: ReconcileDeps, loop: Pick<Reconciler, "autoscaleAdded">): FleetView {
  return {
    catalog: deps.catalog,
    book: deps.book,
    health: deps.health,
    registry: deps.registry,
    unplaceable: deps.unplaceable,
    liveness: deps.liveness,
    get startedAtMs() {
      return deps.startedAtMs;
    },
    onDemandIdleMs: deps.policy.onDemandIdleMs,
    demandedAtMs: (model) => deps.demand.lastAt(model),
    autoscaleAdded: (model) => (deps.leadership.isLeader() ? loop.autoscaleAdded(model) : 0),
    nowMs: deps.nowMs,
  };
}
