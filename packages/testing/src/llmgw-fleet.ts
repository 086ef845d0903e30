// Starts real `llmgw server` and `llmgw agent --simulate` processes for integration tests, on free
// ports in temp dirs, with a known admin password. The agent port speaks TLS: each server start
// makes one multi-use join token (through the API, signed in as admin), and each agent joins with
// it and the CA's fingerprint on its first start, then keeps its certificate in its data dir.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { caFingerprint } from "@llmgw/pki";
import { registerCleanup } from "./cleanup-registry.ts";
import { freePort } from "./free-port.ts";
import { spawnLlmgw, type SpawnedProcess } from "./spawn-process.ts";
import { tempDir } from "./temp-dir.ts";
import { waitFor } from "./wait-for.ts";

export const ADMIN_PASSWORD = "integration-admin-pw";

export interface ServerHandle {
  process: SpawnedProcess;
  apiUrl: string;
  /** `wss://127.0.0.1:PORT`. */
  agentUrl: string;
  /** A join token for any number of agents, valid for a day. */
  joinToken: string;
  /** The cluster CA's fingerprint, what `--ca-sha256` pins. */
  caSha256: string;
  /** The cluster CA certificate (PEM), for test clients of the agent port. */
  caPem: string;
  httpPort: number;
  agentPort: number;
}

export interface ServerSetup {
  homeDir: string;
  databaseUrl?: string;
  httpPort: number;
  agentPort: number;
  heartbeatIntervalMs?: number;
  /** More settings for the server process (short reconcile timings in tests). */
  env?: Record<string, string>;
}

export async function serverSetup(databaseUrl?: string): Promise<ServerSetup> {
  const home = await tempDir("it-server");
  return {
    homeDir: home.path,
    databaseUrl,
    httpPort: await freePort(),
    agentPort: await freePort(),
    heartbeatIntervalMs: 300,
  };
}

/** How many times a server whose port another process took first is started on other ports. */
const PORT_TAKEN_ATTEMPTS = 3;

/**
 * Starts the server on the setup's ports. Between `freePort` choosing a port and the server
 * binding it (seconds, while tsx loads), a process of another test file can take the same port;
 * this server then exits with EADDRINUSE, and the other one's /healthz must not pass for it. So
 * the server counts as up only once its own output says it listens; one that found a port taken
 * is started again on new ones (written into `setup`, so a restart uses them too).
 */
export async function startServer(setup: ServerSetup): Promise<ServerHandle> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce(setup);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= PORT_TAKEN_ATTEMPTS) throw error;
      setup.httpPort = await freePort();
      setup.agentPort = await freePort();
    }
  }
}

class PortTakenError extends Error {}

async function startServerOnce(setup: ServerSetup): Promise<ServerHandle> {
  const process = spawnLlmgw(["server"], {
    name: "server",
    env: {
      LLMGW_HOME: setup.homeDir,
      LLMGW_PORT: String(setup.httpPort),
      LLMGW_AGENT_PORT: String(setup.agentPort),
      LLMGW_AGENT_BIND: "127.0.0.1",
      LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LLMGW_HEARTBEAT_INTERVAL_MS: String(setup.heartbeatIntervalMs ?? 2000),
      DATABASE_URL: setup.databaseUrl,
      ...setup.env,
    },
  });
  const apiUrl = `http://127.0.0.1:${setup.httpPort}`;
  // A server that died says so at once, with its output, instead of a timeout with none; one that
  // is only slow (a 2-core CI machine running two test files, each transpiling at start) gets 90 s.
  // (The race keeps a handler on `died`, so its rejection when the server is stopped later is handled.)
  const died = process.exited.then((exit) => {
    const output = process.output();
    const message = `the server exited (code ${String(exit.code)}, signal ${String(exit.signal)}) before answering /healthz; output:\n${output.slice(-4_000)}`;
    throw output.includes("EADDRINUSE") ? new PortTakenError(message) : new Error(message);
  });
  await Promise.race([
    died,
    waitFor(
      async () =>
        process.output().includes(" listening: http") && (await fetch(`${apiUrl}/healthz`)).ok,
      { what: "server /healthz", timeoutMs: 90_000 },
    ),
  ]);
  const caPem = readFileSync(join(setup.homeDir, "pki", "ca.crt"), "utf8");
  return {
    process,
    apiUrl,
    agentUrl: `wss://127.0.0.1:${setup.agentPort}`,
    joinToken: await createJoinToken(apiUrl),
    caSha256: caFingerprint(caPem),
    caPem,
    httpPort: setup.httpPort,
    agentPort: setup.agentPort,
  };
}

/** Signs in as the admin and makes a join token, with plain tRPC-over-HTTP requests. */
export async function createJoinToken(
  apiUrl: string,
  input: { ttlSeconds?: number; uses?: number; description?: string } = {},
): Promise<string> {
  const login = await trpcCall<{ token?: string }>(apiUrl, "auth.login", null, {
    username: "admin",
    password: ADMIN_PASSWORD,
  });
  if (!login.token) throw new Error("signing in as admin answered no session token");
  const created = await trpcCall<{ token: string }>(apiUrl, "joinTokens.create", login.token, {
    ttlSeconds: 86_400,
    description: "integration tests",
    ...input,
  });
  return created.token;
}

async function trpcCall<T>(
  apiUrl: string,
  path: string,
  bearer: string | null,
  input: unknown,
): Promise<T> {
  const response = await fetch(`${apiUrl}/api/trpc/${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { result?: { data?: T }; error?: unknown };
  if (!response.ok || body.result?.data === undefined)
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body.error)}`);
  return body.result.data;
}

export async function startAgent(
  server: ServerHandle,
  name: string,
  profile: string,
  dataDir?: string,
): Promise<SpawnedProcess> {
  const dir = dataDir ?? (await tempDir(`it-agent-${name}`)).path;
  cleanUpEnginesOf(dir, name);
  // The token and pin are used only on the first start (no certificate yet in the data dir).
  return spawnLlmgw(["agent", "--server", server.agentUrl, "--name", name, "--simulate", profile], {
    name: `agent ${name}`,
    env: {
      LLMGW_JOIN_TOKEN: server.joinToken,
      LLMGW_CA_SHA256: server.caSha256,
      LLMGW_AGENT_DATA_DIR: dir,
    },
  });
}

/**
 * Engines outlive a killed agent on purpose (adoption); a test must not leave them behind. At the
 * test's cleanup, kills every engine the agent with this data dir recorded.
 */
export function cleanUpEnginesOf(agentDataDir: string, name: string): void {
  registerCleanup({
    name: `engines of agent ${name}`,
    stop: async () => killEngineGroups(agentDataDir),
    killNow: () => killEngineGroups(agentDataDir),
  });
}

/** SIGKILL to the process group of every engine the agent recorded in its state file. */
function killEngineGroups(agentDataDir: string): void {
  let records: Array<{ pgid?: number }> = [];
  try {
    const state = JSON.parse(readFileSync(join(agentDataDir, "replicas.json"), "utf8")) as {
      replicas?: Array<{ pgid?: number }>;
    };
    records = state.replicas ?? [];
  } catch {
    return; // No engines were ever recorded.
  }
  for (const { pgid } of records) {
    if (typeof pgid !== "number" || pgid <= 1) continue;
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
