// Server configuration: parsed once from the environment (and flags) in main, then passed down.
// Nothing else in the server reads process.env.
import { resolve } from "node:path";
import { isIP } from "node:net";
import { parseArgs } from "node:util";
import { z } from "zod";
import { parsePowerBudgets } from "@llmgw/domain";
import { TRACING_ENV, tracingConfigFrom, type GatewayConfig } from "./gateway/gateway-config";
import { MIRRORS_ENV, mirrorsConfigFrom, type MirrorsConfig } from "./mirrors/mirror-config";
import { readSettingsFile, SettingsFileError } from "./install/settings-file";

const DEFAULT_HOME = ".llmgw";

const port = (name: string, fallback: number) =>
  z.coerce
    .number({ message: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0-65535`)
    .max(65535, `${name} must be 0-65535`)
    .default(fallback);

const envSchema = z.object({
  LLMGW_HOME: z.string().default(DEFAULT_HOME),
  LLMGW_DATA_DIR: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
    .optional(),
  LLMGW_PORT: port("LLMGW_PORT", 8080),
  LLMGW_AGENT_PORT: port("LLMGW_AGENT_PORT", 8081),
  LLMGW_BIND: z.string().default("127.0.0.1"),
  LLMGW_AGENT_BIND: z.string().default("0.0.0.0"),
  LLMGW_AGENT_TLS_NAMES: z
    .string()
    .regex(
      /^[A-Za-z0-9.:,\s-]*$/,
      "LLMGW_AGENT_TLS_NAMES must be a comma list of host names and IP addresses",
    )
    .default(""),
  LLMGW_NODE_CERT_DAYS: z.coerce
    .number({ message: "LLMGW_NODE_CERT_DAYS must be a number" })
    .int("LLMGW_NODE_CERT_DAYS must be a whole number")
    .min(1, "LLMGW_NODE_CERT_DAYS must be at least 1")
    .max(825, "LLMGW_NODE_CERT_DAYS must be at most 825")
    .default(30),
  LLMGW_NODE_CERT_TTL_SECONDS: z.coerce
    .number({ message: "LLMGW_NODE_CERT_TTL_SECONDS must be a number" })
    .int()
    .min(10, "LLMGW_NODE_CERT_TTL_SECONDS must be at least 10 (it is for tests of renewal)")
    .optional(),
  LLMGW_NODE_CERT_WARN_DAYS: z.coerce.number().min(0).max(825).default(7),
  LLMGW_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  LLMGW_MISSED_HEARTBEATS: z.coerce.number().int().min(1).max(100).default(3),
  LLMGW_ADMIN_PASSWORD: z
    .string()
    .min(8, "LLMGW_ADMIN_PASSWORD must be at least 8 characters")
    .optional(),
  LLMGW_SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  LLMGW_MASTER_KEY: z.string().min(1).optional(),
  LLMGW_METRICS_TOKEN: z
    .string()
    .min(16, "LLMGW_METRICS_TOKEN must be at least 16 characters")
    .optional(),
  LLMGW_LOST_AFTER_MS: z.coerce.number().int().min(500).max(3_600_000).default(10_000),
  LLMGW_RESTART_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  LLMGW_LEADER_LEASE_MS: z.coerce
    .number({ message: "LLMGW_LEADER_LEASE_MS must be a number" })
    .int("LLMGW_LEADER_LEASE_MS must be a whole number")
    .min(1_000, "LLMGW_LEADER_LEASE_MS must be at least 1000: shorter leases flap on a slow store")
    .max(600_000, "LLMGW_LEADER_LEASE_MS must be at most 600000")
    .default(10_000),
  LLMGW_FAILURE_BACKOFF_MS: z.coerce
    .number({ message: "LLMGW_FAILURE_BACKOFF_MS must be a number" })
    .int("LLMGW_FAILURE_BACKOFF_MS must be a whole number")
    .min(0, "LLMGW_FAILURE_BACKOFF_MS must be 0 (off) or more")
    .max(3_600_000, "LLMGW_FAILURE_BACKOFF_MS must be at most 3600000")
    .default(5_000),
  LLMGW_FAILURE_BACKOFF_MAX_MS: z.coerce
    .number({ message: "LLMGW_FAILURE_BACKOFF_MAX_MS must be a number" })
    .int("LLMGW_FAILURE_BACKOFF_MAX_MS must be a whole number")
    .min(0, "LLMGW_FAILURE_BACKOFF_MAX_MS must be 0 or more")
    .max(86_400_000, "LLMGW_FAILURE_BACKOFF_MAX_MS must be at most 86400000")
    .default(300_000),
  LLMGW_EVICT_AFTER_IDLE_MS: z.coerce
    .number({ message: "LLMGW_EVICT_AFTER_IDLE_MS must be a number" })
    .int("LLMGW_EVICT_AFTER_IDLE_MS must be a whole number")
    .min(1_000, "LLMGW_EVICT_AFTER_IDLE_MS must be at least 1000")
    .max(86_400_000, "LLMGW_EVICT_AFTER_IDLE_MS must be at most 86400000")
    .default(120_000),
  LLMGW_STANDBY_REFRESH_MS: z.coerce
    .number({ message: "LLMGW_STANDBY_REFRESH_MS must be a number" })
    .int("LLMGW_STANDBY_REFRESH_MS must be a whole number")
    .min(100, "LLMGW_STANDBY_REFRESH_MS must be at least 100")
    .max(60_000, "LLMGW_STANDBY_REFRESH_MS must be at most 60000")
    .default(2_000),
  LLMGW_RESYNC_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** facility.budgets: KIND=VALUE:WATTS, comma-separated (docs/facility.md#power-budgets). */
  LLMGW_FACILITY_BUDGETS: z
    .string()
    .default("")
    .transform((text, ctx) => {
      const parsed = parsePowerBudgets(text);
      if (parsed.ok) return parsed.budgets;
      for (const error of parsed.errors) ctx.addIssue({ code: "custom", message: error });
      return z.NEVER;
    }),
  LLMGW_START_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  LLMGW_AGENT_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  LLMGW_SIGNIN_FREE_FAILURES: z.coerce
    .number({ message: "LLMGW_SIGNIN_FREE_FAILURES must be a number" })
    .int("LLMGW_SIGNIN_FREE_FAILURES must be a whole number")
    .min(1, "LLMGW_SIGNIN_FREE_FAILURES must be at least 1: 0 would slow every first typo")
    .max(10_000, "LLMGW_SIGNIN_FREE_FAILURES must be at most 10000")
    .default(10),
  LLMGW_AGENT_UNREGISTERED_PER_ADDRESS: z.coerce
    .number({ message: "LLMGW_AGENT_UNREGISTERED_PER_ADDRESS must be a number" })
    .int("LLMGW_AGENT_UNREGISTERED_PER_ADDRESS must be a whole number")
    .min(1, "LLMGW_AGENT_UNREGISTERED_PER_ADDRESS must be at least 1: 0 would refuse every agent")
    .max(100_000, "LLMGW_AGENT_UNREGISTERED_PER_ADDRESS must be at most 100000")
    .default(32),
  LLMGW_BREAKER_OPEN_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(
      30_000,
      "LLMGW_BREAKER_OPEN_MS must be at most 30000: a failing endpoint is probed again within 30 s",
    )
    .default(30_000),
  LLMGW_GATEWAY_CHECKS: z
    .enum(["on", "off"], { message: "LLMGW_GATEWAY_CHECKS must be on or off" })
    .default("on"),
  LLMGW_QUEUE_SIZE: z.coerce
    .number({ message: "LLMGW_QUEUE_SIZE must be a number" })
    .int("LLMGW_QUEUE_SIZE must be a whole number")
    .min(0, "LLMGW_QUEUE_SIZE must be 0 or more (0: refuse at once when every endpoint is full)")
    .max(100_000, "LLMGW_QUEUE_SIZE must be at most 100000")
    .default(256),
  LLMGW_QUEUE_WAIT_MS: z.coerce
    .number({ message: "LLMGW_QUEUE_WAIT_MS must be a number" })
    .int()
    .min(1, "LLMGW_QUEUE_WAIT_MS must be at least 1")
    .max(600_000, "LLMGW_QUEUE_WAIT_MS must be at most 600000 (10 minutes)")
    .default(30_000),
  LLMGW_ENDPOINT_MAX_IN_FLIGHT: z.coerce
    .number({ message: "LLMGW_ENDPOINT_MAX_IN_FLIGHT must be a number" })
    .int()
    .min(1, "LLMGW_ENDPOINT_MAX_IN_FLIGHT must be at least 1")
    .max(100_000)
    .default(256),
  LLMGW_FEDERATION_CHECK_MS: z.coerce
    .number({ message: "LLMGW_FEDERATION_CHECK_MS must be a number" })
    .int()
    .min(200, "LLMGW_FEDERATION_CHECK_MS must be at least 200")
    .max(600_000, "LLMGW_FEDERATION_CHECK_MS must be at most 600000")
    .default(5_000),
  LLMGW_FEDERATION_SYNC_MS: z.coerce
    .number({ message: "LLMGW_FEDERATION_SYNC_MS must be a number" })
    .int()
    .min(1_000, "LLMGW_FEDERATION_SYNC_MS must be at least 1000")
    .max(86_400_000, "LLMGW_FEDERATION_SYNC_MS must be at most 86400000")
    .default(60_000),
  LLMGW_SCRAPE_INTERVAL_MS: z.coerce
    .number({ message: "LLMGW_SCRAPE_INTERVAL_MS must be a number" })
    .int()
    .min(200, "LLMGW_SCRAPE_INTERVAL_MS must be at least 200")
    .max(60_000, "LLMGW_SCRAPE_INTERVAL_MS must be at most 60000")
    .default(3_000),
  LLMGW_ON_DEMAND_WAIT_MS: z.coerce
    .number({ message: "LLMGW_ON_DEMAND_WAIT_MS must be a number" })
    .int()
    .min(0)
    .max(3_600_000, "LLMGW_ON_DEMAND_WAIT_MS must be at most 3600000 (an hour)")
    .default(300_000),
  LLMGW_ON_DEMAND_IDLE_MS: z.coerce
    .number({ message: "LLMGW_ON_DEMAND_IDLE_MS must be a number" })
    .int()
    .min(1_000, "LLMGW_ON_DEMAND_IDLE_MS must be at least 1000")
    .max(7 * 86_400_000)
    .default(600_000),
  LLMGW_ALLOW_PRIVATE_UPSTREAMS: z
    .enum(["true", "false", "1", "0"], {
      message: "LLMGW_ALLOW_PRIVATE_UPSTREAMS must be true or false",
    })
    .default("false"),
  LLMGW_KEY_FILE_DIR: z
    .string()
    .refine((dir) => dir.startsWith("/"), {
      message:
        "LLMGW_KEY_FILE_DIR must be an absolute path: the one directory external models' key files may come from",
    })
    .optional(),
  LLMGW_MCP_ALLOW_PRIVATE: z
    .enum(["0", "1", "true", "false"], {
      message: "LLMGW_MCP_ALLOW_PRIVATE must be 1 or 0",
    })
    .default("0"),
  LLMGW_MCP_BREAKER_OPEN_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  LLMGW_MCP_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  ...TRACING_ENV,
  ...MIRRORS_ENV,
});

export interface ServerConfig {
  homeDir: string;
  store: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };
  httpHost: string;
  httpPort: number;
  agentHost: string;
  agentPort: number;
  /** Names and addresses the server's certificate holds besides localhost and the host name. */
  agentTls: { names: string[]; addresses: string[] };
  /** How long a node certificate lives (LLMGW_NODE_CERT_DAYS, or the seconds override for tests). */
  nodeCertValidSeconds: number;
  /** A node certificate this close to expiry, not renewed, is announced (certificate.expiring). */
  nodeCertWarnBeforeMs: number;
  /** When set, GET /metrics needs `Authorization: Bearer <this>`; unset, it is open (scrapers). */
  metricsToken: string | null;
  heartbeatIntervalMs: number;
  missedHeartbeatsMax: number;
  initialAdminPassword: string | null;
  sessionTtlMs: number;
  /** Wrong passwords a name or an address may send before sign-in starts to make it wait. */
  signInFreeFailures: number;
  maxFrameBytes: number;
  /**
   * Sockets from one address that may be connected to the agent port and not yet registered at
   * once; more are answered 429. Registered agents do not count, so it matters only for many
   * nodes behind one NAT address reconnecting together.
   */
  agentUnregisteredPerAddressMax: number;
  /** Base64 of 32 bytes from LLMGW_MASTER_KEY, or null to use (or create) `<home>/master.key`. */
  masterKeyBase64: string | null;
  /** How long a node may stay unreachable before its replicas are rebuilt on other nodes. */
  lostAfterMs: number;
  /** After a server start, how long nodes have to reconnect before their replicas are rebuilt. */
  restartGraceMs: number;
  /** Every model is reconciled at least this often, even without an event. */
  resyncIntervalMs: number;
  /** The control-plane leader lease's term; the holder renews every third of it. */
  leaderLeaseMs: number;
  /** How often a standby reads the leader's placements, the catalog and model health. */
  standbyRefreshMs: number;
  /** The wait before replacing a failed replica: base, doubled per failure in a row, capped. */
  failureBackoff: { baseMs: number; capMs: number };
  /** How long a replica must go unasked before it may be evicted for a more important model. */
  evictAfterIdleMs: number;
  /** facility.budgets: the watts each facility domain may draw (`rack=r12`). */
  facilityBudgets: { domain: string; watts: number }[];
  /** How long an engine may take to get ready, counted from its last download progress. */
  startTimeoutMs: number;
  /** How long a request to an agent (logs, reclaim) may wait for its answer. */
  agentRequestTimeoutMs: number;
  /** How long an endpoint's open breaker waits before it lets one probe through. */
  breakerOpenMs: number;
  /**
   * False only for the router benchmark (P5, LLMGW_GATEWAY_CHECKS=off): /v1 then takes any bearer
   * token as an open key, with no limits and no usage rows. Refused unless bound to loopback.
   */
  gatewayChecks: boolean;
  gateway: GatewayConfig;
  federation: {
    /** How often each peer's /ready is checked (its timeout is the same, at most 3 s). */
    checkIntervalMs: number;
    /** How often each peer's /v1/models is synced. */
    syncIntervalMs: number;
  };
  mirrors: MirrorsConfig;
  mcp: {
    /** Whether MCP servers may be on private, loopback, link-local or metadata addresses. */
    isPrivateAllowed: boolean;
    /** How long five failures in a row take an MCP server out. */
    breakerOpenMs: number;
    /** An upstream call's time limit when its server names none. */
    defaultTimeoutMs: number;
  };
}

export type { GatewayConfig };

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

function readHomeSettings(home: string): Record<string, string> {
  try {
    return readSettingsFile(resolve(home));
  } catch (error) {
    if (error instanceof SettingsFileError) throw new ConfigError(error.message);
    throw error;
  }
}

export function parseServerConfig(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      "agent-port": { type: "string" },
      home: { type: "string" },
    },
    strict: true,
  });
  // The home's settings file first; the environment, then flags, win over it.
  const home = values.home ?? env.LLMGW_HOME ?? DEFAULT_HOME;
  const merged = {
    ...readHomeSettings(home),
    ...env,
    ...(values.port !== undefined && { LLMGW_PORT: values.port }),
    ...(values["agent-port"] !== undefined && { LLMGW_AGENT_PORT: values["agent-port"] }),
    ...(values.home !== undefined && { LLMGW_HOME: values.home }),
  };
  const parsed = envSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  const e = parsed.data;
  if (e.LLMGW_GATEWAY_CHECKS === "off" && !["127.0.0.1", "::1", "localhost"].includes(e.LLMGW_BIND))
    throw new ConfigError(
      "LLMGW_GATEWAY_CHECKS=off opens /v1 to anyone: it is for benchmarks and needs LLMGW_BIND=127.0.0.1",
    );
  const mirrors = mirrorsConfigFrom(e, merged, (message) => new ConfigError(message));
  const homeDir = resolve(e.LLMGW_HOME);
  return {
    homeDir,
    store: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : { kind: "pglite", dataDir: resolve(e.LLMGW_DATA_DIR ?? `${homeDir}/data`) },
    httpHost: e.LLMGW_BIND,
    httpPort: e.LLMGW_PORT,
    agentHost: e.LLMGW_AGENT_BIND,
    agentPort: e.LLMGW_AGENT_PORT,
    agentTls: splitTlsNames(e.LLMGW_AGENT_TLS_NAMES),
    nodeCertValidSeconds: e.LLMGW_NODE_CERT_TTL_SECONDS ?? e.LLMGW_NODE_CERT_DAYS * 86_400,
    nodeCertWarnBeforeMs: e.LLMGW_NODE_CERT_WARN_DAYS * 86_400_000,
    metricsToken: e.LLMGW_METRICS_TOKEN ?? null,
    heartbeatIntervalMs: e.LLMGW_HEARTBEAT_INTERVAL_MS,
    missedHeartbeatsMax: e.LLMGW_MISSED_HEARTBEATS,
    initialAdminPassword: e.LLMGW_ADMIN_PASSWORD ?? null,
    sessionTtlMs: e.LLMGW_SESSION_TTL_HOURS * 3_600_000,
    signInFreeFailures: e.LLMGW_SIGNIN_FREE_FAILURES,
    maxFrameBytes: 4 * 1024 * 1024,
    agentUnregisteredPerAddressMax: e.LLMGW_AGENT_UNREGISTERED_PER_ADDRESS,
    masterKeyBase64: e.LLMGW_MASTER_KEY ?? null,
    lostAfterMs: e.LLMGW_LOST_AFTER_MS,
    resyncIntervalMs: e.LLMGW_RESYNC_INTERVAL_MS,
    leaderLeaseMs: e.LLMGW_LEADER_LEASE_MS,
    standbyRefreshMs: e.LLMGW_STANDBY_REFRESH_MS,
    failureBackoff: { baseMs: e.LLMGW_FAILURE_BACKOFF_MS, capMs: e.LLMGW_FAILURE_BACKOFF_MAX_MS },
    evictAfterIdleMs: e.LLMGW_EVICT_AFTER_IDLE_MS,
    facilityBudgets: e.LLMGW_FACILITY_BUDGETS,
    restartGraceMs: e.LLMGW_RESTART_GRACE_MS,
    startTimeoutMs: e.LLMGW_START_TIMEOUT_MS,
    agentRequestTimeoutMs: e.LLMGW_AGENT_REQUEST_TIMEOUT_MS,
    breakerOpenMs: e.LLMGW_BREAKER_OPEN_MS,
    gatewayChecks: e.LLMGW_GATEWAY_CHECKS === "on",
    gateway: {
      queueSize: e.LLMGW_QUEUE_SIZE,
      queueWaitMs: e.LLMGW_QUEUE_WAIT_MS,
      endpointMaxInFlight: e.LLMGW_ENDPOINT_MAX_IN_FLIGHT,
      scrapeIntervalMs: e.LLMGW_SCRAPE_INTERVAL_MS,
      onDemandWaitMs: e.LLMGW_ON_DEMAND_WAIT_MS,
      onDemandIdleMs: e.LLMGW_ON_DEMAND_IDLE_MS,
      allowPrivateUpstreams: ["true", "1"].includes(e.LLMGW_ALLOW_PRIVATE_UPSTREAMS),
      keyFileDir: e.LLMGW_KEY_FILE_DIR ? resolve(e.LLMGW_KEY_FILE_DIR) : null,
      tracing: tracingConfigFrom(e),
    },
    federation: {
      checkIntervalMs: e.LLMGW_FEDERATION_CHECK_MS,
      syncIntervalMs: e.LLMGW_FEDERATION_SYNC_MS,
    },
    mirrors,
    mcp: {
      isPrivateAllowed: e.LLMGW_MCP_ALLOW_PRIVATE === "1" || e.LLMGW_MCP_ALLOW_PRIVATE === "true",
      breakerOpenMs: e.LLMGW_MCP_BREAKER_OPEN_MS,
      defaultTimeoutMs: e.LLMGW_MCP_TIMEOUT_MS,
    },
  };
}

/** `gw.example, 10.0.0.5` → the names and the addresses, for the server certificate's SANs. */
function splitTlsNames(list: string): { names: string[]; addresses: string[] } {
  const items = list
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  return {
    names: items.filter((item) => isIP(item) === 0),
    addresses: items.filter((item) => isIP(item) !== 0),
  };
}
