// The shared process harness from @llmgw/testing, plus a typed tRPC client to look at what the
// server sees, and `startFleet()`: the server, its agents and a signed-in admin in one call.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { messageOf } from "@llmgw/domain";
import type { AppRouter } from "@llmgw/api";
import { writeFile } from "node:fs/promises";
import { afterAll } from "vitest";
import { join } from "node:path";
import {
  ADMIN_PASSWORD,
  serverSetup,
  startAgent,
  startPostgres,
  startServer,
  tempDir,
  waitFor,
  type PostgresServer,
  type ServerHandle,
  type ServerSetup,
  type SpawnedProcess,
} from "@llmgw/testing";

// What the files that start a bare server (the agent-port fuzz) or send passwords need.
export {
  ADMIN_PASSWORD,
  serverSetup,
  startServer,
  type ServerHandle,
  type ServerSetup,
} from "@llmgw/testing";

/** A client without a browser; `token` absent or null calls anonymously. */
export function apiClient(apiUrl: string, token: string | null | undefined) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${apiUrl}/api/trpc`,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

/** Signs in without a browser, which is answered the session token itself (a browser is not). */
export async function sessionToken(apiUrl: string, username: string, password: string) {
  const { token } = await apiClient(apiUrl, null).auth.login.mutate({ username, password });
  if (!token) throw new Error(`signing in as ${username} answered no session token`);
  return token;
}

async function signIn(apiUrl: string) {
  return apiClient(apiUrl, await sessionToken(apiUrl, "admin", ADMIN_PASSWORD));
}

export type Api = Awaited<ReturnType<typeof signIn>>;

/** A `file://` source the simulated agents can really fetch; the simulator ignores its content. */
export async function simWeightsSource(prefix: string): Promise<string> {
  const weights = join((await tempDir(prefix)).path, "sim.safetensors");
  await writeFile(weights, "simulated weights");
  return `file://${weights}`;
}

/** A sim-engine model on one card (or `gpus`) of any recent GPU, with extra engine args (faults). */
export function simGpuModel(
  name: string,
  source: string,
  options: {
    args?: string[];
    min?: number;
    max?: number;
    gpus?: number;
    startTimeoutMs?: number;
  } = {},
) {
  const min = options.min ?? 1;
  return {
    name,
    source,
    profiles: [
      {
        name: "sim",
        engine: "sim",
        gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
        gpus: options.gpus ?? 1,
        args: options.args ?? [],
        ...(options.startTimeoutMs ? { start_timeout_ms: options.startTimeoutMs } : {}),
      },
    ],
    replicas: { min, max: options.max ?? Math.max(min, 1) },
  };
}

export interface FleetOptions {
  /**
   * The home, ports and store an earlier fleet used (its master key opens what that one sealed);
   * when given, `databaseUrl` and `env` are not read.
   */
  setup?: ServerSetup;
  /** PostgreSQL to store in; absent: PGlite in the server's temp home. */
  databaseUrl?: string;
  /** More settings for the server process (short reconcile timings, gateway limits). */
  env?: Record<string, string>;
  /** Agents with simulated cards to start once the server answers, by name and profile. */
  agents?: Array<{ name: string; profile: string }>;
}

/** A running agent and the data dir it keeps (its replicas.json), reused when it starts again. */
interface FleetAgent {
  process: SpawnedProcess;
  dataDir: string;
}

export interface Fleet {
  /** Where the server keeps its home, ports and store: the same across `restart()`. */
  setup: ServerSetup;
  /** The running server; `restart()` replaces it. */
  server: ServerHandle;
  /** The admin's tRPC client; `restart()` signs in again. */
  api: Api;
  /** The agents started so far, by name. */
  agents: Map<string, FleetAgent>;
  /** The gateway's base URL, `…/v1`. */
  v1: string;
  /** Starts (or starts again, on the same data dir) an agent with simulated cards. */
  startAgent(name: string, profile: string): Promise<SpawnedProcess>;
  /** The agent started under `name`; throws when there is none. */
  agent(name: string): FleetAgent;
  /**
   * Stops the server and starts it again on the same setup, signed in as admin again;
   * `whileStopped` runs in between (another process on the same home).
   */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  /** Waits for `count` ready replicas of the model that have an address, and returns them. */
  readyReplicas(model: string, count: number, timeoutMs?: number): Promise<ReadyReplica[]>;
  /** Stops the agents, then the server; `dump` (a test's IT_DUMP) prints their output first. */
  stop(dump?: boolean): Promise<void>;
}

export type ReadyReplica = { id: string; endpoint: string };

/** A server in a temp home (PGlite unless `databaseUrl`), signed in as admin, with its agents. */
export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  const setup = options.setup ?? {
    ...(await serverSetup(options.databaseUrl)),
    env: options.env,
  };
  const agents = new Map<string, FleetAgent>();
  const server = await startServer(setup);
  const fleet: Fleet = {
    setup,
    server,
    api: await signIn(server.apiUrl),
    agents,
    v1: `http://127.0.0.1:${setup.httpPort}/v1`,
    async startAgent(name, profile) {
      const dataDir = agents.get(name)?.dataDir ?? (await tempDir(`it-agent-${name}`)).path;
      const process = await startAgent(fleet.server, name, profile, dataDir);
      agents.set(name, { process, dataDir });
      return process;
    },
    agent(name) {
      const found = agents.get(name);
      if (!found) throw new Error(`no agent named ${name} was started in this fleet`);
      return found;
    },
    async restart(whileStopped) {
      await fleet.server.process.stop();
      await whileStopped?.();
      fleet.server = await startServer(setup);
      fleet.api = await signIn(fleet.server.apiUrl);
    },
    readyReplicas: (model, count, timeoutMs = 60_000) =>
      waitFor(
        async () => {
          const ready = (await fleet.api.replicas.list.query({ model })).flatMap((r) =>
            r.phase === "ready" && r.endpoint ? [{ id: r.id, endpoint: r.endpoint }] : [],
          );
          return ready.length >= count ? ready : undefined;
        },
        { what: `${count} ready replicas of ${model}`, timeoutMs },
      ),
    async stop(dump = false) {
      const processes = [...agents.values()].map((agent) => agent.process);
      if (dump) console.log(fleet.server.process.output(), ...processes.map((p) => p.output()));
      for (const agent of processes) await agent.stop();
      await fleet.server.process.stop();
    },
  };
  for (const agent of options.agents ?? []) await fleet.startAgent(agent.name, agent.profile);
  return fleet;
}

/** Both store backends for `describe.each`; PostgreSQL 15 starts on first use, stops after the file. */
export function storeBackends() {
  let postgres: PostgresServer | undefined;
  afterAll(async () => postgres?.stop());
  return [
    { name: "PGlite", databaseUrl: async (): Promise<string | undefined> => undefined },
    {
      name: "PostgreSQL 15",
      databaseUrl: async (): Promise<string | undefined> =>
        (postgres ??= await startPostgres()).url,
    },
  ];
}

/** The tRPC code a call was refused with, or "OK" when it went through. */
export async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "OK";
  } catch (error) {
    return error instanceof TRPCClientError
      ? String((error.data as { code?: string } | undefined)?.code)
      : String(error);
  }
}

/** The message a call was refused with, or "(no error)" when it went through. */
export async function rejectionOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "(no error)";
  } catch (error) {
    return messageOf(error);
  }
}
