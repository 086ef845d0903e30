// Wires the control plane together: config → store → control plane → API services, gateway,
// agent port and HTTP port. Each piece is built in its feature folder; this file only connects them.
import type { CatalogStore } from "./catalog/catalog-store";
import { loadOrCreateClusterId } from "./federation/cluster-id";
import { Federation } from "./federation/federation";
import { registerMirrorMetrics } from "./mirrors/mirror-metrics";
import { MirrorMonitor } from "./mirrors/mirror-monitor";
import { PeersStore } from "./federation/peers-store";
import { listenForStopSignals } from "@llmgw/engines";
import { leaderLease, openStore, StoreInUseError, type Database, type Store } from "@llmgw/db";
import { ConfigError, parseServerConfig, type ServerConfig } from "./config";
import { startAgentPort } from "./agents/agent-port";
import { NodeLinks } from "./agents/node-links";
import { startControlPlane } from "./reconcile/control-plane";
import { SealError } from "./seal/seal";
import { loadFacility } from "./fleet/facility-store";
import { FleetRegistry } from "./fleet/registry";
import { registerStallMetrics, startStallWatch } from "./fleet/stall-watch";
import { storedNodeRows } from "./fleet/stored-node-rows";
import { createInventoryWriter } from "./fleet/inventory";
import { startLivenessSweep } from "./fleet/liveness-sweep";
import { startApiPort } from "./http/api-port";
import { createApiServices } from "./http/api-services";
import { startGateway } from "./gateway/start-gateway";
import { registerGuardMetrics } from "./guard/guard-metrics";
import { createMetrics } from "./metrics";
import { openClusterPki } from "./pki/cluster-pki";
import { startCertificateExpiryWatch } from "./pki/certificate-expiry";
import { registerCertificateMetrics } from "./pki/certificate-metrics";
import { joinInfoOf } from "./pki/join-info";
import { createJoinTokens } from "./pki/join-tokens";
import { ensureFirstAdmin } from "./identity/auth-service";
import { createEventRecorder } from "./events/event-recorder";
import { keepAuditWhileStoreAway } from "./identity/audit-queue";
import { registerStoreQueueMetrics } from "./store-queue-metrics";
import { formatLogLine } from "./log-line";
import { LeaderElector } from "./leader/elector";
import { leaseStoreOf } from "./leader/lease";
import { registerLeaderMetrics } from "./leader/leader-metrics";
import { hostname } from "node:os";
import { ControlPlaneDirectory } from "./leader/control-planes";
import { createControlPlanesService } from "./leader/control-planes-service";
import { SERVER_VERSION } from "./version";
import { allocatorInUse } from "@llmgw/release/launcher";
import { recordAudit } from "./identity/audit";
import type { MirrorAddress } from "@llmgw/domain";
import { controlPlaneApiRoute, type RequestHandler } from "./standby/control-plane-api";
import { isFlagError, runServerSubcommand, SERVER_USAGE } from "./install/subcommands";
import { messageOf } from "@llmgw/domain";

export interface RunningServer {
  httpPort: number;
  agentPort: number;
  stop(): Promise<void>;
}

// Every field a line carries (names, URLs, error text) is escaped onto that one line.
const log = (line: string): void => {
  process.stderr.write(formatLogLine(line, new Date()));
};

async function announceFirstAdmin(db: Database, password: string | null): Promise<void> {
  const admin = await ensureFirstAdmin(db, password);
  if (!admin) return;
  const shown = password
    ? "the password given in LLMGW_ADMIN_PASSWORD"
    : `password (shown once): ${admin.password}`;
  log(`created the first admin "${admin.username}" with ${shown}`);
}

/** What the process around the server provides; `llmgw server` restarts on requestRestart. */
export interface ServerHooks {
  requestRestart(): void;
}

/** Started without a supervisor to restart it (tests), an upgrade leaves the server running. */
const NO_RESTART: ServerHooks = {
  requestRestart: () =>
    log("upgrade: restart requested, but this server runs without a supervisor"),
};

/** Long enough for the upgrade's answer to reach the caller before the server stops. */
const RESTART_DELAY_MS = 1_000;
/** The exit status that asks the supervisor to start the server again. */
const EXIT_RESTART = 75;

export async function startServer(
  config: ServerConfig,
  hooks: ServerHooks = NO_RESTART,
): Promise<RunningServer> {
  const store = await openStore(config.store);
  // PGlite holds one process (its lock file says so): a lease found there is a dead process's,
  // and a restart after a crash must not wait it out.
  if (store.kind === "pglite") await store.db.delete(leaderLease);
  // Only the lease holder reconciles and takes agents; the others serve /v1 from the store.
  const elector = new LeaderElector({
    ...{ store: leaseStoreOf(store.db), leaseMs: config.leaderLeaseMs, log },
    ownerName: `${hostname()}:${config.httpPort}`,
  });
  elector.start();
  try {
    return await startLeading(config, hooks, store, elector);
  } catch (error) {
    // A start that fails (a sealed secret that does not open) must not keep the lease it took:
    // the next start, or another control plane, would wait a whole lease for nothing.
    await elector.stop();
    await store.close();
    throw error;
  }
}

async function startLeading(
  config: ServerConfig,
  hooks: ServerHooks,
  store: Store,
  elector: LeaderElector,
): Promise<RunningServer> {
  const { db } = store;
  // The first claim decides before anything is served: a lone control plane must not start as
  // a standby with no leader to pass /api to.
  await elector.round();
  await announceFirstAdmin(db, config.initialAdminPassword);
  const nowMs = () => Date.now();
  const pki = await openClusterPki({ ...config, db, nowMs });
  let agentPort = config.agentPort;
  const joinInfo = () =>
    joinInfoOf({ ...config, caSha256: pki.paths.caFingerprint, agentPort: () => agentPort });
  const joinTokens = createJoinTokens(db, nowMs, joinInfo);
  const events = createEventRecorder(db, nowMs, log);
  const audit = keepAuditWhileStoreAway(db, log);
  // The server's own stalls are excused from its nodes' silence (fleet/stall-watch.ts).
  const stalls = startStallWatch(nowMs);
  const registry = new FleetRegistry(stalls);
  registry.facility.setBudgets(config.facilityBudgets);
  await loadFacility(db, registry.facility);
  const links = new NodeLinks();
  const liveness = {
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    missedHeartbeatsMax: config.missedHeartbeatsMax,
  };
  const shared = { db, config, registry, links, liveness, events, nowMs, log };
  let httpPort = config.httpPort;
  const directory = new ControlPlaneDirectory(
    ...[db, elector.owner, () => describeSelf(config, joinInfo().agentUrls, httpPort)],
    { leaseHolder: () => (elector.isLeader() ? elector.owner : (elector.lease()?.owner ?? null)) },
    { leaseMs: config.leaderLeaseMs, log },
  );
  const peerModels = { known: (_name: string) => false };
  const judgeModels = { current: (): ReadonlySet<string> => new Set() };
  const mirrorOrder = { order: (): MirrorAddress[] => [] };
  const plane = await startControlPlane({
    ...{ ...shared, leadership: elector, peerModels, judgeModels },
    mirrorOrder,
  });
  const mirrors = new MirrorMonitor({
    ...config.mirrors,
    models: () => plane.catalog.current().models,
    audit: (actor, action, target) => recordAudit(db, { actor: actor.username, action, target }),
    ...{ nowMs, log },
  });
  mirrors.start();
  // A model added to the catalog gets its S3 mirror URLs signed now, not at the next check.
  plane.catalog.subscribe(() => mirrors.refresh());
  mirrorOrder.order = () => mirrors.order();
  const federation = new Federation({
    store: new PeersStore(db, plane.masterKey),
    clusterId: await loadOrCreateClusterId(db),
    ...config.federation,
    fallbackNames: () => fallbackNamesOf(plane.catalog),
    ...{ nowMs, log },
  });
  await federation.start();
  peerModels.known = (name) => federation.target(name) !== null;
  const storedNodes = storedNodeRows(db, nowMs);
  const api = createApiServices({
    ...{ ...shared, plane, cluster: { pki, joinTokens }, federation, mirrors, storedNodes },
    requestRestart: hooks.requestRestart,
    controlPlanes: createControlPlanesService({
      ...{ directory, self: elector.owner, nowMs },
      lease: () => elector.lease(),
    }),
  });
  const metrics = createMetrics(api.services.nodes, plane.fleet, api.services.quotas);
  registerCertificateMetrics(metrics.registry, pki);
  registerLeaderMetrics(metrics.registry, elector);
  registerStallMetrics(metrics.registry, stalls);
  registerMirrorMetrics(metrics.registry, mirrors);
  const gateway = startGateway({
    ...{ db, fleet: plane.fleet, demand: plane.demand, replicaSecret: plane.replicaSecret },
    load: plane.load,
    ...{ reconciler: plane.reconciler, keys: api.keys, breakerOpenMs: config.breakerOpenMs },
    ...{ config: config.gateway, registry: metrics.registry, checks: config.gatewayChecks, log },
    controlPlanes: () => directory.liveCount(),
    guard: api.guard,
    federation,
    federationCheckIntervalMs: config.federation.checkIntervalMs,
  });
  registerGuardMetrics(metrics.registry, api.guard);
  judgeModels.current = () => api.guard.judgeModels();
  registerStoreQueueMetrics(metrics.registry, {
    usage: gateway.usage.queue,
    audit,
    events: events.waiting,
  });
  const inventory = createInventoryWriter(db, registry, nowMs, log, storedNodes);
  const isLeader = () => elector.isLeader();
  // Standbys pass /api here; it is answered by the API port's own handler once that has started.
  let apiHandler: RequestHandler | null = null;
  const agents = await startAgentPort({
    ...{ ...shared, pki, tokens: joinTokens, plane, inventory, metrics },
    routes: [controlPlaneApiRoute({ isLeader, api: () => apiHandler })],
    releases: api.releaseStore,
    // Every live control plane's agent addresses, ours first: agents fail over among them.
    agentUrls: () => directory.agentUrls(),
    refusesAgents: () => (elector.isLeader() ? null : standbyRefusal(directory)),
  });
  agentPort = agents.port;
  elector.onChange((leading) => {
    if (!leading) agents.dropAgents("this control plane no longer leads; connect to the leader");
  });
  const sweep = startLivenessSweep({
    ...{ registry, policy: liveness, nowMs, log, saveLastSeen: inventory.lastSeen },
    onTransition: (live, state, previous) => {
      // A process that lost the lease dropped its agents on purpose: they went to the leader.
      if (!elector.isLeader()) return;
      const params = { node: live.register.nodeName };
      if (state === "unreachable") events.record("node.unreachable", live.nodeId, params);
      else if (previous === "unreachable") events.record("node.back", live.nodeId, params);
    },
  });
  const expiryWatch = startCertificateExpiryWatch({
    ...{ certificates: pki.certificates, warnBeforeMs: config.nodeCertWarnBeforeMs, nowMs },
    nodeName: (nodeId) => registry.get(nodeId)?.register.nodeName ?? nodeId,
    isLeader,
    record: (kind, subjectId, params) => events.record(kind, subjectId, params),
  });
  // A standby must know where the leader is before its API port answers anything.
  await directory.start();
  const http = await startApiPort({
    ...{ db, config, api, metrics, events, v1: gateway.handle, nowMs, log },
    // A standby passes /api to the leader's agent port, found in the control-plane directory.
    standby: {
      ...{ isLeader, tls: pki.tls },
      leaderPeerUrl: () => directory.leader()?.peerUrl ?? null,
    },
  });
  httpPort = http.port;
  // The row's API address was the configured port until now (0: chosen at listen).
  void directory.beat();
  apiHandler = http.handle;
  log(
    `listening: http://${config.httpHost}:${http.port} (API), wss://${config.agentHost}:${agents.port}/agent/v1 (agents, TLS), store ${store.kind}, memory allocator ${allocatorInUse()}`,
  );
  const join = joinInfo();
  log(
    `cluster CA ${pki.paths.caCertPath}, sha256 ${join.caSha256}; a node joins with: llmgw agent join ${join.agentUrls[0] ?? "wss://HOST:PORT"} --token-file FILE --ca-sha256 ${join.caSha256} (a token from: llmgw ctl join-tokens create)`,
  );
  return {
    httpPort: http.port,
    agentPort: agents.port,
    async stop() {
      sweep.stop();
      stalls.stop();
      expiryWatch.stop();
      await Promise.all([http.close(), agents.close()]);
      // The closed sessions' last-seen times are written before the store closes.
      await inventory.settled();
      await gateway.stop();
      await federation.stop();
      await mirrors.stop();
      await plane.stop();
      await directory.stop();
      await elector.stop();
      await events.flush();
      await audit.stop();
      await store.close();
    },
  };
}

/** Every name a fallback names, for the federation: those peer models are kept withdrawn. */
function fallbackNamesOf(catalog: Pick<CatalogStore, "current" | "meta">): Set<string> {
  return new Set(
    catalog.current().models.flatMap((model) => catalog.meta(model.name)?.fallbacks ?? []),
  );
}

/** This control plane's row in `control_planes`: where people, agents and peers reach it. */
function describeSelf(config: ServerConfig, agentUrls: readonly string[], httpPort: number) {
  const host = WILDCARD_HOSTS.has(config.httpHost) ? hostname() : config.httpHost;
  const first = agentUrls[0] ?? `wss://${hostname()}:${config.agentPort}`;
  return {
    name: `${hostname()}:${httpPort}`,
    apiUrl: `http://${host.includes(":") ? `[${host}]` : host}:${httpPort}`,
    // The agent port speaks HTTPS beside its WebSocket; peers call it with their certificate.
    peerUrl: first.replace(/^wss:/, "https:"),
    agentUrls,
    version: SERVER_VERSION,
  };
}

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", ""]);

/** What a standby tells an agent that reached it: where the leader takes agents. */
function standbyRefusal(directory: ControlPlaneDirectory): string {
  const leader = directory.leader();
  const where = leader?.agentUrls[0] ? ` at ${leader.agentUrls[0]}` : "";
  return `this control plane stands by; agents connect to the leader${where}`;
}

/** `llmgw server`: runs until SIGINT or SIGTERM, or until an upgrade asks for a restart; `llmgw
 * server init|add|migrate-store` make or change a home instead. */
export async function runServer(argv: string[]): Promise<void> {
  const subcommandExit = await runServerSubcommand(argv);
  if (subcommandExit !== null) {
    process.exitCode = subcommandExit;
    return;
  }
  let config: ServerConfig;
  try {
    config = parseServerConfig(argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`llmgw server: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (isFlagError(error)) {
      process.stderr.write(`llmgw server: ${messageOf(error)}\n\n${SERVER_USAGE}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  // Listen for signals before anything starts: a supervisor may signal as soon as it reads the
  // "listening" line, and a stop during start-up must still close the store cleanly.
  let isRestart = false;
  // The listeners stay until the stop has finished: a repeated SIGTERM (a process group's, then
  // `llmgw dev`'s own) must not kill the server while it writes its last state.
  let requestStop = (): void => undefined;
  const signals = listenForStopSignals((signal) => log(`already stopping (${signal})`));
  const stopRequested = new Promise<void>((resolve) => {
    requestStop = resolve;
    void signals.received.then(() => resolve());
  });
  const requestRestart = () => {
    isRestart = true;
    setTimeout(requestStop, RESTART_DELAY_MS);
  };
  let server: RunningServer;
  try {
    server = await startServer(config, { requestRestart });
  } catch (error) {
    signals.dispose();
    // A sealed secret that does not open, or a PGlite store another process holds, must stop the
    // server with the reason, not a stack trace.
    if (error instanceof SealError || error instanceof StoreInUseError) {
      process.stderr.write(`llmgw server: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  await stopRequested;
  log(isRestart ? "stopping to restart on the new release (exit 75)" : "stopping");
  try {
    await server.stop();
  } finally {
    signals.dispose();
  }
  // 75 asks systemd (Restart=always) or `llmgw dev` to start the release `current` points at now.
  if (isRestart) process.exitCode = EXIT_RESTART;
}
