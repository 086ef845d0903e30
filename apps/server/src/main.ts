// Wires the control plane together: config → store → live fleet → agent port and HTTP port.
import { join } from "node:path";
import { openStore } from "@llmgw/db";
import type { ApiServices } from "@llmgw/api";
import { ConfigError, parseServerConfig, type ServerConfig } from "./config";
import { startAgentServer } from "./agents/agent-server";
import { throttledLog } from "./agents/agent-admission";
import { createAgentSession } from "./agents/session";
import { NodeLinks } from "./agents/node-links";
import { startControlPlane } from "./reconcile/control-plane";
import { SealError } from "./seal/seal";
import { createModelsService } from "./catalog/models-service";
import { createReplicasService } from "./reconcile/replicas-service";
import { createStatusService } from "./fleet/status-service";
import { createLogsService, createReclaimService } from "./agents/node-requests";
import { FleetRegistry } from "./fleet/registry";
import { createInventoryWriter } from "./fleet/inventory";
import { createContext } from "./http/context";
import { startHttpServer } from "./http/http-server";
import { startGateway } from "./gateway/start-gateway";
import { createKeysService } from "./keys/keys-service";
import { startMcp } from "./mcp/start-mcp";
import { createMetrics } from "./metrics";
import { readOrCreateSecretFile } from "./secrets";
import { createAuthService, ensureFirstAdmin, userForSession } from "./identity/auth-service";
import { createNodesService } from "./fleet/nodes-service";
import { createUsageService } from "./gateway/usage-service";
import { createEventRecorder } from "./events/event-recorder";
import { createEventsService } from "./events/events-service";
import { startLivenessSweep } from "./fleet/liveness-sweep";
import { SERVER_VERSION } from "./version";
import { formatLogLine } from "./log-line";
import { createAuditService } from "./identity/audit";
import { createOwnershipResolver } from "./identity/ownership";
import { createPeopleService } from "./identity/people-service";
import { handleAuthRoute, publicOrigin } from "./identity/auth-routes";
import { handleScim } from "./identity/scim/scim-routes";
import { EntraSignIn } from "./identity/entra";
import { LdapSignIn } from "./identity/ldap";
import { createSignInSetupService } from "./identity/sign-in-service";
import { SignInStore } from "./identity/sign-in-settings";

export interface RunningServer {
  httpPort: number;
  agentPort: number;
  stop(): Promise<void>;
}

// Every field a line carries (names, URLs, error text) is escaped onto that one line.
const log = (line: string): void => {
  process.stderr.write(formatLogLine(line, new Date()));
};

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const store = await openStore(config.store);
  const { db } = store;
  const admin = await ensureFirstAdmin(db, config.initialAdminPassword);
  if (admin) {
    const shown = config.initialAdminPassword
      ? "the password given in LLMGW_ADMIN_PASSWORD"
      : `password (shown once): ${admin.password}`;
    log(`created the first admin "${admin.username}" with ${shown}`);
  }
  const joinToken =
    config.joinToken ?? readOrCreateSecretFile(join(config.homeDir, "join-token")).value;

  const nowMs = () => Date.now();
  const events = createEventRecorder(db, nowMs, log);
  const registry = new FleetRegistry();
  const links = new NodeLinks();
  const policy = {
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    missedHeartbeatsMax: config.missedHeartbeatsMax,
  };
  const plane = await startControlPlane({
    db,
    config,
    registry,
    links,
    liveness: policy,
    events,
    nowMs,
    log,
  });
  const { fleet, reconciler } = plane;
  const keys = createKeysService(db, plane.apiKeyPepper, nowMs, events);
  const signInStore = new SignInStore(db, plane.masterKey);
  const entra = new EntraSignIn(signInStore, nowMs);
  const ldap = new LdapSignIn(signInStore, log);
  const ownership = createOwnershipResolver(db);
  const sessionUser = (token: string) => userForSession(db, token, new Date(nowMs()));
  const mcp = startMcp({
    db,
    config: config.mcp,
    masterKey: plane.masterKey,
    keys,
    ownership,
    sessionUser,
    nowMs,
    log,
  });
  const services: ApiServices = {
    nodes: createNodesService(db, registry, policy, nowMs),
    auth: createAuthService(db, config.sessionTtlMs, nowMs, ldap, config.signInFreeFailures),
    models: createModelsService({
      db,
      fleet,
      catalog: plane.catalog,
      health: plane.health,
      reconciler,
      events,
      log,
    }),
    replicas: createReplicasService(fleet),
    status: createStatusService(fleet),
    logs: createLogsService({ registry, links }, config.agentRequestTimeoutMs),
    reclaim: createReclaimService(
      db,
      { registry, links, catalog: fleet.catalog },
      config.agentRequestTimeoutMs,
    ),
    keys,
    usage: createUsageService(db, nowMs),
    events: createEventsService(db),
    people: createPeopleService(db),
    audit: createAuditService(db),
    ownership,
    signIn: createSignInSetupService(signInStore),
    mcp: mcp.service,
  };
  const metrics = createMetrics(services.nodes, fleet);
  const gateway = startGateway({
    db,
    fleet,
    demand: plane.demand,
    replicaSecret: plane.replicaSecret,
    reconciler,
    keys,
    breakerOpenMs: config.breakerOpenMs,
    config: config.gateway,
    registry: metrics.registry,
    checks: config.gatewayChecks,
    log,
  });
  const inventory = createInventoryWriter(db, registry, nowMs, log);

  // A flood of refused sockets must not become a flood of log lines.
  const logRefusal = throttledLog(log, 10_000, nowMs);
  const agents = await startAgentServer({
    host: config.agentHost,
    port: config.agentPort,
    maxFrameBytes: config.maxFrameBytes,
    unregisteredPerAddressMax: config.agentUnregisteredPerAddressMax,
    onMalformedFrame: () => metrics.malformedFrames.inc(),
    onRefused: (address, reason) => {
      metrics.refusedAgents.inc();
      logRefusal(`agent port: closed a socket from ${address} before Register: ${reason}`);
    },
    onConnection: (socket) =>
      createAgentSession(socket, {
        joinToken,
        heartbeatIntervalMs: config.heartbeatIntervalMs,
        serverVersion: SERVER_VERSION,
        registry,
        links,
        nowMs,
        onReplicaReport: plane.onReplicaReport,
        log: (line) => {
          if (line.includes("refused")) metrics.refusedAgents.inc();
          log(line);
        },
        onRegistered: (register) => {
          log(
            `node ${register.nodeName} (${register.nodeId}) registered from ${socket.remoteAddress}`,
          );
          void inventory.registered(register);
          plane.onRegistered(register.nodeId, register.replicas);
        },
        onDisconnected: (nodeId) => {
          log(`node ${nodeId} disconnected`);
          void inventory.disconnected(nodeId);
          plane.onDisconnected(nodeId);
        },
      }),
  });
  const sweep = startLivenessSweep({
    registry,
    policy,
    nowMs,
    log,
    saveLastSeen: inventory.lastSeen,
    onTransition: (live, state, previous) => {
      const params = { node: live.register.nodeName };
      if (state === "unreachable") events.record("node.unreachable", live.nodeId, params);
      else if (previous === "unreachable") events.record("node.back", live.nodeId, params);
    },
  });
  const http = await startHttpServer({
    host: config.httpHost,
    port: config.httpPort,
    isReady: () => true,
    log,
    createContext: (req, res) => createContext(req, res, services, sessionUser),
    metrics: async () => ({
      contentType: metrics.registry.contentType,
      body: await metrics.registry.metrics(),
    }),
    metricsToken: config.metricsToken,
    v1: gateway.handle,
    scim: (req, res) =>
      handleScim(req, res, { store: signInStore, origin: publicOrigin(req), nowMs, log }),
    auth: (req, res, path) =>
      handleAuthRoute(req, res, path, {
        db,
        entra,
        sessionTtlMs: config.sessionTtlMs,
        nowMs,
        log,
      }),
    mcp: mcp.handler(services),
  });
  log(
    `listening: http://${config.httpHost}:${http.port} (API), ws://${config.agentHost}:${agents.port}/agent/v1 (agents), store ${store.kind}`,
  );

  return {
    httpPort: http.port,
    agentPort: agents.port,
    async stop() {
      sweep.stop();
      await Promise.all([http.close(), agents.close()]);
      await gateway.stop();
      await plane.stop();
      await events.flush();
      await store.close();
    },
  };
}

/** `llmgw server`: runs until SIGINT or SIGTERM. */
export async function runServer(argv: string[]): Promise<void> {
  let config: ServerConfig;
  try {
    config = parseServerConfig(argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`llmgw server: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  // Listen for signals before anything starts: a supervisor may signal as soon as it reads the
  // "listening" line, and a stop during start-up must still close the store cleanly.
  const stopRequested = new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (error) {
    // A sealed secret that does not open must stop the server with the reason, not a stack trace.
    if (error instanceof SealError) {
      process.stderr.write(`llmgw server: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  await stopRequested;
  log("stopping");
  await server.stop();
}
