// The agent port as main.ts starts it: the WebSocket server, one session per socket, and what a
// session's life means to the rest of the server (the inventory saved, the reconciler told, the
// refusals counted and logged without flooding).
import type { Database } from "@llmgw/db";
import type { Register } from "@llmgw/proto";
import { messageOf } from "@llmgw/domain";
import type { ServerConfig } from "../config";
import { sendStoredEngineBuilds } from "../fleet/engine-builds";
import type { InventoryWriter } from "../fleet/inventory";
import { createWriteBatch } from "../fleet/write-batch";
import type { FleetRegistry } from "../fleet/registry";
import type { ServerMetrics } from "../metrics";
import type { ControlPlane } from "../reconcile/control-plane";
import type { ReleaseStore } from "../releases/release-store";
import { RELEASE_FETCH_PREFIX, serveRelease } from "../releases/release-routes";
import { SERVER_VERSION } from "../version";
import { burstLimitedLog, throttledLog } from "./agent-admission";
import type { AgentRoute } from "./agent-http";
import { startAgentServer, type AgentServer } from "./agent-server";
import type { ClusterPki } from "../pki/cluster-pki";
import { certificateRoutes } from "../pki/join-routes";
import type { JoinTokens } from "../pki/join-tokens";
import type { NodeLinks } from "./node-links";
import { createAgentSession } from "./session";

/** A flood of refused sockets must not become a flood of log lines: one a period at most. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;
/** Registered/disconnected lines logged per second at most; the rest are counted. */
const SESSION_LOG_BURST = {
  limit: 20,
  intervalMs: 1_000,
  what: "nodes registered or disconnected",
};
/** Nodes whose engine build is read in one query at most. */
const ENGINE_BUILD_READS_MAX = 1_000;
/**
 * How long the control planes' agent addresses told in RegisterAcks are reused: building them
 * (host names, the live control planes' rows) for each of 500 acks in a storm cost 77 ms.
 */
const AGENT_URLS_FRESH_MS = 1_000;

/** `read`'s answer, read again only once it is `freshMs` old. */
export function reusedFor<T>(freshMs: number, nowMs: () => number, read: () => T): () => T {
  let last: { value: T; atMs: number } | undefined;
  return () => {
    const now = nowMs();
    if (last === undefined || now - last.atMs >= freshMs) last = { value: read(), atMs: now };
    return last.value;
  };
}

export interface AgentPortOptions {
  config: Pick<
    ServerConfig,
    | "agentHost"
    | "agentPort"
    | "maxFrameBytes"
    | "agentUnregisteredPerAddressMax"
    | "heartbeatIntervalMs"
  >;
  pki: ClusterPki;
  tokens: Pick<JoinTokens, "check" | "spend">;
  /** More HTTPS routes on the agent port (node-authenticated ones: `access: "node"`). */
  routes?: readonly AgentRoute[];
  registry: FleetRegistry;
  links: NodeLinks;
  plane: Pick<ControlPlane, "onRegistered" | "onReplicaReport" | "onDisconnected">;
  inventory: Pick<InventoryWriter, "registered" | "disconnected">;
  metrics: Pick<ServerMetrics, "malformedFrames" | "refusedAgents">;
  /** Stored releases, which agents fetch over this port to upgrade themselves. */
  releases: ReleaseStore;
  /** The store, read for the node's engine build after each Register. */
  db: Database;
  /** Why agents go elsewhere now (this control plane stands by), or null: see AgentServerOptions. */
  refusesAgents?(): string | null;
  /** The control planes' agent-port addresses, told to every agent in its RegisterAck. */
  agentUrls?(): readonly string[];
  nowMs(): number;
  log(line: string): void;
}

export function startAgentPort(options: AgentPortOptions): Promise<AgentServer> {
  const { config, plane, inventory, metrics, log } = options;
  const logRefusal = throttledLog(log, REFUSAL_LOG_INTERVAL_MS, options.nowMs);
  const logSession = burstLimitedLog(log, SESSION_LOG_BURST, options.nowMs);
  const readAgentUrls = options.agentUrls;
  const agentUrls = readAgentUrls && reusedFor(AGENT_URLS_FRESH_MS, options.nowMs, readAgentUrls);
  // Every Register is answered with the stored engine build, so a reconnect resyncs it; nodes
  // registering together are looked up together.
  const sendEngineBuild = createWriteBatch<Register>({
    maxItems: ENGINE_BUILD_READS_MAX,
    write: (registers) =>
      sendStoredEngineBuilds({ db: options.db, links: options.links }, registers).catch(
        (error: unknown) =>
          log(
            `sending the engine build to ${registers.length} registered node(s) failed: ${messageOf(error)}`,
          ),
      ),
  });
  return startAgentServer({
    host: config.agentHost,
    port: config.agentPort,
    maxFrameBytes: config.maxFrameBytes,
    unregisteredPerAddressMax: config.agentUnregisteredPerAddressMax,
    tls: options.pki.tls,
    log,
    identify: options.pki.identify,
    refusesAgents: options.refusesAgents,
    identifyControlPlane: options.pki.identifyControlPlane,
    routes: [
      ...certificateRoutes({
        caCertPem: options.pki.caCertPem,
        tokens: options.tokens,
        certificates: options.pki.certificates,
        agentUrls: options.agentUrls,
        log,
      }),
      // A node fetches a stored release to upgrade itself, with its own certificate only.
      {
        method: "GET",
        path: RELEASE_FETCH_PREFIX,
        access: "node",
        handle: ({ req, res }) => serveRelease(req, res, options.releases),
      },
      ...(options.routes ?? []),
    ],
    onMalformedFrame: () => metrics.malformedFrames.inc(),
    onRefused: (address, reason) => {
      metrics.refusedAgents.inc();
      logRefusal(`agent port: refused a socket from ${address} before Register: ${reason}`);
    },
    onConnection: (socket) =>
      createAgentSession(socket, {
        heartbeatIntervalMs: config.heartbeatIntervalMs,
        serverVersion: SERVER_VERSION,
        agentUrls,
        registry: options.registry,
        links: options.links,
        nowMs: options.nowMs,
        onReplicaReport: plane.onReplicaReport,
        log: (line) => {
          if (line.includes("refused")) metrics.refusedAgents.inc();
          log(line);
        },
        // Written in a batch; the RegisterAck goes first, onRegistered after the write.
        saveRegistration: inventory.registered,
        onRegistered: (register) => {
          logSession(
            `node ${register.nodeName} (${register.nodeId}) registered from ${socket.remoteAddress}`,
          );
          plane.onRegistered(register.nodeId, register.replicas);
          void sendEngineBuild(register);
        },
        onDisconnected: (nodeId) => {
          logSession(`node ${nodeId} disconnected`);
          void inventory.disconnected(nodeId);
          plane.onDisconnected(nodeId);
        },
      }),
  });
}
