// Starts real `llmgw server` and `llmgw agent --simulate` processes for integration tests, on free
// ports in temp dirs, with a known join token and admin password.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { registerCleanup } from "./cleanup-registry.ts";
import { freePort } from "./free-port.ts";
import { spawnLlmgw, type SpawnedProcess } from "./spawn-process.ts";
import { tempDir } from "./temp-dir.ts";
import { waitFor } from "./wait-for.ts";

export const JOIN_TOKEN = "integration-join-token-0123456789";
export const ADMIN_PASSWORD = "integration-admin-pw";

export interface ServerHandle {
  process: SpawnedProcess;
  apiUrl: string;
  agentUrl: string;
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

export async function startServer(setup: ServerSetup): Promise<ServerHandle> {
  const process = spawnLlmgw(["server"], {
    name: "server",
    env: {
      LLMGW_HOME: setup.homeDir,
      LLMGW_PORT: String(setup.httpPort),
      LLMGW_AGENT_PORT: String(setup.agentPort),
      LLMGW_AGENT_BIND: "127.0.0.1",
      LLMGW_JOIN_TOKEN: JOIN_TOKEN,
      LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LLMGW_HEARTBEAT_INTERVAL_MS: String(setup.heartbeatIntervalMs ?? 2000),
      DATABASE_URL: setup.databaseUrl,
      ...setup.env,
    },
  });
  const apiUrl = `http://127.0.0.1:${setup.httpPort}`;
  await waitFor(async () => (await fetch(`${apiUrl}/healthz`)).ok, {
    what: "server /healthz",
    timeoutMs: 60_000,
  });
  return {
    process,
    apiUrl,
    agentUrl: `ws://127.0.0.1:${setup.agentPort}`,
    httpPort: setup.httpPort,
    agentPort: setup.agentPort,
  };
}

export async function startAgent(
  server: ServerHandle,
  name: string,
  profile: string,
  dataDir?: string,
): Promise<SpawnedProcess> {
  const dir = dataDir ?? (await tempDir(`it-agent-${name}`)).path;
  // Engines outlive a killed agent on purpose (adoption); a test must not leave them behind.
  registerCleanup({
    name: `engines of agent ${name}`,
    stop: async () => killEngineGroups(dir),
    killNow: () => killEngineGroups(dir),
  });
  return spawnLlmgw(["agent", "--server", server.agentUrl, "--name", name, "--simulate", profile], {
    name: `agent ${name}`,
    env: { LLMGW_JOIN_TOKEN: JOIN_TOKEN, LLMGW_AGENT_DATA_DIR: dir },
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
