// Assembles the /v1 gateway over the read-only fleet view; main.ts wires it to the HTTP port. It
// writes nothing of the reconciler's: it records demand and asks for passes, no more.
import type { ApiKeyRow, Database } from "@llmgw/db";
import { DEFAULT_BREAKER_POLICY, messageOf, RetryBudget } from "@llmgw/domain";
import type { Registry } from "prom-client";
import type { GatewayConfig } from "../config";
import type { GatewayKeys } from "../keys/keys-service";
import type { FleetView } from "../fleet/fleet-view";
import type { DemandSink } from "../reconcile/demand";
import type { LoadSink } from "../reconcile/replica-load";
import type { Reconciler } from "../reconcile/reconciler";
import { AdmissionQueues } from "./admission";
import { EndpointPool } from "./endpoints";
import { createExternalAgent } from "./external";
import { createGateway } from "./gateway";
import type { Guard } from "../guard/guard";
import { judgeAsker } from "../guard/judge-client";
import { registerGatewayMetrics } from "./gateway-metrics";
import { KeyLimits } from "./key-limits";
import { startLoadScraper, type LoadScraper } from "./load-scraper";
import { startRequestTracer } from "./request-trace";
import { createUpstreamAgent } from "./upstream";
import { UsageRecorder } from "./usage-recorder";
import type { Federation } from "../federation/federation";
import { registerFederationMetrics } from "../federation/federation-metrics";

export interface RunningGateway {
  handle: ReturnType<typeof createGateway>;
  scraper: LoadScraper;
  /** Usage rows waiting for the store (for /metrics). */
  usage: UsageRecorder;
  stop(): Promise<void>;
}

/** Benchmarks only (LLMGW_GATEWAY_CHECKS=off): any bearer token opens every model, unlimited. */
const OPEN_KEY: ApiKeyRow = {
  ...{ id: "gateway-checks-off", prefix: "checks-off", keyHash: "", owner: "user:benchmark" },
  ...{ models: ["*"], requestsPerMinute: null, tokensPerMinute: null, concurrentMax: null },
  residency: "any",
  noStore: false,
  ...{ expiresAt: null, revokedAt: null, createdBy: "config", createdAt: new Date(0) },
  lastUsedAt: null,
};
class NoLimits extends KeyLimits {
  override admit(): void {}
  override release(): void {}
}
class NoUsage extends UsageRecorder {
  override record(): void {}
}

export interface GatewayOptions {
  db: Database;
  fleet: FleetView;
  demand: DemandSink;
  /** Where the engines' scraped load goes, for the autoscaler. */
  load: LoadSink;
  /** The secret replica keys are derived from; never logged. */
  replicaSecret: Uint8Array;
  reconciler: Pick<Reconciler, "markDirty" | "idle">;
  keys: GatewayKeys;
  breakerOpenMs: number;
  config: GatewayConfig;
  registry: Registry;
  /** False only for the P5 benchmark (LLMGW_GATEWAY_CHECKS=off): no key check, limits or usage. */
  checks: boolean;
  /** How many control planes share each key's limits now (each admits its share). */
  controlPlanes?(): number;
  /** The guard; the gateway binds its judge, since only the gateway reaches the replicas. */
  guard: Guard;
  /** Peer clusters whose models are offered here as `PEER/MODEL`. */
  federation: Federation;
  /** How often peers are checked (a down peer's models say when to retry). */
  federationCheckIntervalMs: number;
  log(line: string): void;
}

export function startGateway(options: GatewayOptions): RunningGateway {
  const { db, fleet, config, reconciler, replicaSecret, log } = options;
  const { nowMs } = fleet;
  const agent = createUpstreamAgent();
  const externalAgent = createExternalAgent(config.allowPrivateUpstreams);
  const usage = new (options.checks ? UsageRecorder : NoUsage)(db, log);
  if (!options.checks)
    log("gateway: LLMGW_GATEWAY_CHECKS=off: /v1 checks no key, limits nothing, records no usage");
  const pool = new EndpointPool(fleet.book, fleet.catalog, {
    ...DEFAULT_BREAKER_POLICY,
    openForMs: options.breakerOpenMs,
  });
  const queues = new AdmissionQueues(
    { queueSize: config.queueSize, maxWaitMs: config.queueWaitMs },
    (model) => pool.triable(model, nowMs()) * config.endpointMaxInFlight,
  );
  const budgets = new Map<string, RetryBudget>();
  const metrics = registerGatewayMetrics(options.registry, pool, queues, nowMs);
  const scraper = startLoadScraper({
    ...{ pool, agent, replicaSecret, intervalMs: config.scrapeIntervalMs },
    ...{ sink: options.load, nowMs, log },
  });
  // Replicas that got ready since the last request let queued requests in.
  const waker = setInterval(() => queues.wake(), 1_000);
  waker.unref();
  const tracer = startRequestTracer(config.tracing);
  if (config.tracing.endpoint !== null)
    log(`gateway: tracing /v1 requests to ${config.tracing.endpoint} (OTLP, protobuf)`);
  const forwardDeps = {
    pool,
    agent,
    externalAgent,
    allowPrivateUpstreams: config.allowPrivateUpstreams,
    keyFileDir: config.keyFileDir,
    sealedKey: (model: string) => fleet.catalog.externalKey(model),
    retryBudget: (model: string) => {
      let budget = budgets.get(model);
      if (!budget) budgets.set(model, (budget = new RetryBudget(0.2)));
      return budget;
    },
    replicaSecret,
    metrics,
    nowMs,
    log,
  };
  options.guard.bindJudge(judgeAsker(forwardDeps));
  const handle = createGateway({
    keys: options.checks
      ? options.keys
      : { ...options.keys, check: () => Promise.resolve({ ok: true, key: OPEN_KEY }) },
    limits: new (options.checks ? KeyLimits : NoLimits)(options.controlPlanes),
    queues,
    onDemand: {
      fleet,
      demand: options.demand,
      pool,
      reconcileNow: (model) => reconciler.markDirty(model),
      reconcileSettled: () => reconciler.idle(),
      waitMs: config.onDemandWaitMs,
      nowMs,
    },
    usage,
    fleet,
    tracer,
    guard: options.guard,
    peers: {
      federation: options.federation,
      metrics: registerFederationMetrics(options.registry, options.federation),
      checkIntervalMs: options.federationCheckIntervalMs,
      nowMs,
      log,
    },
    ...forwardDeps,
  });
  return {
    handle,
    scraper,
    usage,
    async stop() {
      pool.close();
      scraper.stop();
      clearInterval(waker);
      await usage.stop();
      await tracer
        .stop()
        .catch((error: unknown) =>
          log(`gateway: the last spans were not sent: ${messageOf(error)}`),
        );
      await agent.close();
      await externalAgent.close();
    },
  };
}
