// Starts what one run measures: llmgw (a real server process on PGlite in a temp home, as
// @llmgw/testing starts it) and the bare `ws` server borrowing its TLS; joins N node identities
// through the real join route (join token → CSR → certificate). All is registered for cleanup.
import { createWriteStream, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTRPCClient, httpLink, type TRPCClient } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { caFingerprint } from "@llmgw/pki";
import {
  ADMIN_PASSWORD,
  createJoinToken,
  joinAs,
  serverSetup,
  llmgwBin,
  spawnProcess,
  type ServerHandle,
  type SpawnedProcess,
} from "@llmgw/testing";
import { connectWithRetries } from "./measure";
import { SimAgent, type NodeTls } from "./sim-agent";
import { eachAtOnce } from "../each-at-once";

const BENCH_DIR = join(import.meta.dirname, "..");
const SERVER_START_MS = 180_000;
const JOINS_AT_ONCE = 8;
const JOIN_ATTEMPTS = 5;
const JOIN_RETRY_PAUSE_MS = 500;
export const HEARTBEAT_INTERVAL_MS = 2_000;
const PROFILED_STOP_GRACE_MS = 120_000;

export interface Stand {
  server: ServerHandle;
  bare: { process: SpawnedProcess; url: string };
  api: TRPCClient<AppRouter>;
  /** The file holding all the server's output (its in-memory copy keeps only the last 1 MiB). */
  serverLog: string;
  stop(): Promise<void>;
}

/**
 * `nodeArgs` go to the server's node (e.g. `--cpu-prof`). The unregistered-socket cap is
 * raised to the fleet size: every simulated agent dials from 127.0.0.1, so a reconnect storm would
 * otherwise meet the per-address cap meant for strangers, which real fleets spread over addresses.
 */
export async function startLlmgw(
  agentCount: number,
  nodeArgs: string[],
  other: { env?: Record<string, string>; command?: string } = {},
): Promise<{ server: ServerHandle; homeDir: string; serverLog: string }> {
  const setup = await serverSetup();
  // `llmgw server` as spawnLlmgw runs it, with room for node flags NODE_OPTIONS refuses; or a
  // release's `bin/llmgw` when `other.command` names one.
  const [command, args] = other.command
    ? [other.command, ["server"]]
    : [globalThis.process.execPath, [...nodeArgs, llmgwBin(), "server"]];
  const process = spawnProcess(command, args, {
    name: "llmgw",
    // A profiled server writes its profile on the way out, which takes longer than a plain stop.
    ...(nodeArgs.length > 0 ? { stopGraceMs: PROFILED_STOP_GRACE_MS } : {}),
    env: {
      ...other.env,
      LLMGW_HOME: setup.homeDir,
      LLMGW_PORT: String(setup.httpPort),
      LLMGW_AGENT_PORT: String(setup.agentPort),
      LLMGW_AGENT_BIND: "127.0.0.1",
      LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LLMGW_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS),
      LLMGW_AGENT_UNREGISTERED_PER_ADDRESS: String(Math.max(agentCount, 1)),
    },
  });
  // All of the server's output, kept for reading after the run: the spawned process's own copy
  // keeps only its last 1 MiB, which a 2,000-agent run's connect and storm can outgrow.
  const serverLog = join(
    tmpdir(),
    `llmgw-agents-bench-${agentCount}-${new Date().toISOString().replace(/[:.]/g, "-")}.log`,
  );
  const logStream = createWriteStream(serverLog);
  process.child.stdout?.on("data", (chunk: Buffer) => logStream.write(chunk));
  process.child.stderr?.on("data", (chunk: Buffer) => logStream.write(chunk));
  void process.exited.then(() => logStream.end());
  await process.waitForOutput(/server listening: /, SERVER_START_MS);
  const apiUrl = `http://127.0.0.1:${setup.httpPort}`;
  const caPem = readFileSync(join(setup.homeDir, "pki", "ca.crt"), "utf8");
  const server: ServerHandle = {
    process,
    apiUrl,
    agentUrl: `wss://127.0.0.1:${setup.agentPort}`,
    joinToken: await createJoinToken(apiUrl),
    caPem,
    caSha256: caFingerprint(caPem),
    httpPort: setup.httpPort,
    agentPort: setup.agentPort,
  };
  return { server, homeDir: setup.homeDir, serverLog };
}

export async function adminApi(apiUrl: string): Promise<TRPCClient<AppRouter>> {
  const anonymous = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${apiUrl}/api/trpc` })],
  });
  const { token } = await anonymous.auth.login.mutate({
    username: "admin",
    password: ADMIN_PASSWORD,
  });
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${apiUrl}/api/trpc`, headers: { authorization: `Bearer ${token}` } })],
  });
}

export async function startStand(agentCount: number, nodeArgs: string[] = []): Promise<Stand> {
  const { server, homeDir, serverLog } = await startLlmgw(agentCount, nodeArgs);
  const bareProcess = spawnProcess(
    process.execPath,
    ["--import", "tsx", join(BENCH_DIR, "agents", "bare-server.ts"), "--home", homeDir],
    { name: "bare ws", cwd: BENCH_DIR },
  );
  const stop = async () => {
    await Promise.all([server.process.stop(), bareProcess.stop()]);
  };
  try {
    const match = await bareProcess.waitForOutput(/listening on (\d+)/, 60_000);
    return {
      server,
      bare: { process: bareProcess, url: `wss://127.0.0.1:${match[1]}` },
      api: await adminApi(server.apiUrl),
      serverLog,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A join whose answer is lost (the agent port cuts a socket that has not registered within 10 s,
 * which a loaded machine can reach) has still spent the id, so a retry joins under a fresh one.
 */
async function joinWithRetries(server: ServerHandle, name: string): Promise<SimNode> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const nodeId = attempt === 1 ? name : `${name}-retry${attempt}`;
      const identity = await joinAs(server, nodeId);
      return { nodeId, tls: { ca: server.caPem, cert: identity.cert, key: identity.key } };
    } catch (error) {
      if (attempt >= JOIN_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, JOIN_RETRY_PAUSE_MS));
    }
  }
}

export interface SimNode {
  nodeId: string;
  tls: NodeTls;
}

/**
 * An agent for each joined node, added to `agents` first (so the caller's cleanup closes them all),
 * then dialled until registered, failed dials retried for up to 30 s; the first failures printed.
 */
export async function connectJoined(
  agents: SimAgent[],
  server: ServerHandle,
  nodes: readonly SimNode[],
): Promise<void> {
  const joined = nodes.map(
    (node, at) => new SimAgent(node.nodeId, node.tls, HEARTBEAT_INTERVAL_MS, at + 1),
  );
  agents.push(...joined);
  const target = { url: server.agentUrl, isAcked: true };
  const problems = await connectWithRetries(joined, target, HEARTBEAT_INTERVAL_MS, 30_000);
  if (problems.length > 0) console.error(problems.slice(0, 5).join("\n"));
}

/** Each node joins as a real agent does: its own key, a CSR, a certificate from the join route. */
export async function joinNodes(server: ServerHandle, names: string[]): Promise<SimNode[]> {
  const nodes: SimNode[] = new Array<SimNode>(names.length);
  await eachAtOnce(names, JOINS_AT_ONCE, async (name, at) => {
    nodes[at] = await joinWithRetries(server, name);
  });
  return nodes;
}
