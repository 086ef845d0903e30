// The shared process harness from @llmgw/testing, plus a typed tRPC client to look at what the
// server sees, and `startFleet()`: the server, its agents and a signed-in admin in one call.
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  ADMIN_PASSWORD,
  serverSetup,
  startAgent,
  startServer,
  tempDir,
  waitFor,
  type ServerHandle,
  type SpawnedProcess,
} from "@llmgw/testing";

export {
  ADMIN_PASSWORD,
  JOIN_TOKEN,
  serverSetup,
  startAgent,
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

export async function signIn(apiUrl: string) {
  return apiClient(apiUrl, await sessionToken(apiUrl, "admin", ADMIN_PASSWORD));
}

export type Api = Awaited<ReturnType<typeof signIn>>;

/** A `file://` source the simulated agents can really fetch; the simulator ignores its content. */
export async function simWeightsSource(prefix: string): Promise<string> {
  const weights = join((await tempDir(prefix)).path, "sim.safetensors");
  await writeFile(weights, "simulated weights");
  return `file://${weights}`;
}

/** A sim-engine model on one card of any recent GPU, with extra engine args (faults). */
export function simGpuModel(
  name: string,
  source: string,
  options: { args?: string[]; min?: number; max?: number } = {},
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
        gpus: 1,
        args: options.args ?? [],
      },
    ],
    replicas: { min, max: options.max ?? Math.max(min, 1) },
  };
}

export interface FleetOptions {
  /** More settings for the server process (short reconcile timings, gateway limits). */
  env?: Record<string, string>;
  /** Agents with simulated cards to start once the server answers, by name and profile. */
  agents?: Array<{ name: string; profile: string }>;
}

export interface Fleet {
  server: ServerHandle;
  /** The admin's tRPC client. */
  api: Api;
  agents: SpawnedProcess[];
  /** The gateway's base URL, `…/v1`. */
  v1: string;
  /** Waits for `count` ready replicas of the model that have an address, and returns them. */
  readyReplicas(model: string, count: number, timeoutMs?: number): Promise<ReadyReplica[]>;
  /** Stops the agents, then the server; `dump` (a test's IT_DUMP) prints their output first. */
  stop(dump: boolean): Promise<void>;
}

export type ReadyReplica = { id: string; endpoint: string };

/** A server on PGlite in a temp home, signed in as admin, with the given agents started. */
export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  const server = await startServer({ ...(await serverSetup()), env: options.env });
  const api = await signIn(server.apiUrl);
  const agents: SpawnedProcess[] = [];
  for (const agent of options.agents ?? [])
    agents.push(await startAgent(server, agent.name, agent.profile));
  return {
    server,
    api,
    agents,
    v1: `${server.apiUrl}/v1`,
    readyReplicas: (model, count, timeoutMs = 60_000) =>
      waitFor(
        async () => {
          const ready = (await api.replicas.list.query({ model })).flatMap((r) =>
            r.phase === "ready" && r.endpoint ? [{ id: r.id, endpoint: r.endpoint }] : [],
          );
          return ready.length >= count ? ready : undefined;
        },
        { what: `${count} ready replicas of ${model}`, timeoutMs },
      ),
    async stop(dump) {
      if (dump) console.log(server.process.output(), ...agents.map((agent) => agent.output()));
      for (const agent of agents) await agent.stop();
      await server.process.stop();
    },
  };
}
