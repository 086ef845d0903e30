// Starts every process one run compares, side by side on loopback: the two engines, llmgw (a real
// server process, with its gateway checks on and, for P5, a second one with them off), the bare
// undici proxy in front of each engine, and Portkey's gateway. Everything is registered with
// @llmgw/testing's cleanup, so an interrupted run leaves nothing behind.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { caFingerprint } from "@llmgw/pki";
import {
  ADMIN_PASSWORD,
  freePort,
  createJoinToken,
  joinAs,
  serverSetup,
  spawnProcess,
  tempDir,
  waitFor,
  type ServerHandle,
  type SpawnedProcess,
} from "@llmgw/testing";
import { onCores, type CorePlan } from "./cores";
import type { LlmgwCommand } from "./llmgw-command";
import { growFleet } from "./size";
import { startStandInAgent, type StandInAgent } from "./stand-in-agent";
import type { Target } from "./measure";

const BENCH_DIR = join(import.meta.dirname, "..");
const PORTKEY = join(
  BENCH_DIR,
  "node_modules",
  "@portkey-ai",
  "gateway",
  "build",
  "start-server.js",
);
const PORTKEY_VERSION = (
  JSON.parse(readFileSync(join(PORTKEY, "..", "..", "package.json"), "utf8")) as { version: string }
).version;
const SERVER_START_MS = 180_000;
const CHAT = "/v1/chat/completions";

/** The two engines: one that answers at once and one that takes 20 ms, like a short generation. */
const ENGINES = { instant: 0, slow: 20 } as const;
export type EngineName = keyof typeof ENGINES;
export const MODEL: Record<EngineName, string> = { instant: "bench-instant", slow: "bench-20ms" };

export interface Fleet {
  /** Targets in front of each engine, direct first. */
  targets: Record<EngineName, Target[]>;
  /** llmgw with auth, limits and accounting off (P5), in front of the instant engine. */
  llmgwChecksOff: Target;
  /** The load generator's yardstick: a server answering a fixed body (bare-server.ts). */
  bareServer: Target;
  /**
   * Adds `others` ready replicas of other models to the llmgw with checks on, behind an engine of
   * their own; answers how many its book holds now.
   */
  grow(others: number): Promise<number>;
  portkeyVersion: string;
  /** The memory allocator each llmgw server named on its listening line (checks on, then off). */
  llmgwAllocators: string[];
  /** The last lines each llmgw server printed, to show why it refused something. */
  llmgwOutput(): string;
  stop(): Promise<void>;
}

function node(script: string, args: string[], name: string, cores: string | null): SpawnedProcess {
  // Portkey reads NODE_ENV=production to skip its log console; the others ignore it.
  return spawnProcess(
    ...onCores(cores, process.execPath, [
      "--import",
      "tsx",
      join(BENCH_DIR, "router", script),
      ...args,
    ]),
    {
      name,
      cwd: BENCH_DIR,
      env: { NODE_ENV: "production" },
    },
  );
}

async function listening(proc: SpawnedProcess): Promise<number> {
  const match = await proc.waitForOutput(/listening on (\d+)/, 60_000);
  return Number(match[1]);
}

/**
 * `llmgw server` on free ports in a temp home, as @llmgw/testing starts it, but with a start-up
 * deadline that suits a machine busy with other work, and the server's own words if it fails.
 */
async function startServer(
  llmgw: LlmgwCommand,
  checksOff: boolean,
  cores: string | null,
  cpuProfDir?: string,
): Promise<ServerHandle> {
  // Its ports are picked free and then bound by the server, and the benchmark starts other
  // processes on ports of the kernel's choosing meanwhile: one of them may take a picked port
  // first (EADDRINUSE). Then the server is started again on others, as startPostgres does.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce(llmgw, checksOff, cores, cpuProfDir);
    } catch (error) {
      const taken = error instanceof Error && error.message.includes("EADDRINUSE");
      if (!taken || attempt >= SERVER_START_ATTEMPTS_MAX) throw error;
    }
  }
}

/** Starts of a server whose port was taken before it could bind it, before giving up. */
const SERVER_START_ATTEMPTS_MAX = 3;

async function startServerOnce(
  llmgw: LlmgwCommand,
  checksOff: boolean,
  cores: string | null,
  cpuProfDir?: string,
): Promise<ServerHandle> {
  const setup = await serverSetup();
  // V8 writes the profile when the server exits on the SIGTERM the benchmark ends with.
  const start = await llmgw.start(cpuProfDir);
  const process = spawnProcess(...onCores(cores, start.command, [...start.args, "server"]), {
    name: checksOff ? "llmgw (checks off)" : "llmgw",
    // Writing a profile of a whole run at exit takes a while on a busy machine.
    ...(cpuProfDir ? { stopGraceMs: 60_000 } : {}),
    env: {
      ...start.env,
      LLMGW_HOME: setup.homeDir,
      LLMGW_PORT: String(setup.httpPort),
      LLMGW_AGENT_PORT: String(setup.agentPort),
      LLMGW_AGENT_BIND: "127.0.0.1",
      LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...(checksOff ? { LLMGW_GATEWAY_CHECKS: "off" } : {}),
    },
  });
  try {
    await process.waitForOutput(/server listening: /, SERVER_START_MS);
  } catch (error) {
    await process.stop().catch(() => undefined);
    throw error;
  }
  const apiUrl = `http://127.0.0.1:${setup.httpPort}`;
  const caPem = readFileSync(join(setup.homeDir, "pki", "ca.crt"), "utf8");
  return {
    process,
    apiUrl,
    agentUrl: `wss://127.0.0.1:${setup.agentPort}`,
    joinToken: await createJoinToken(apiUrl),
    caPem,
    caSha256: caFingerprint(caPem),
    httpPort: setup.httpPort,
    agentPort: setup.agentPort,
  };
}

async function startLlmgw(
  llmgw: LlmgwCommand,
  enginePorts: ReadonlyMap<string, number>,
  checksOff: boolean,
  cores: string | null,
  cpuProfDir?: string,
): Promise<{ server: ServerHandle; agent: StandInAgent; key: string; api: Api }> {
  const server = await startServer(llmgw, checksOff, cores, cpuProfDir);
  const nodeName = checksOff ? "bench-node-off" : "bench-node";
  const identity = await joinAs(server, `bench-${nodeName}`);
  const agent = await startStandInAgent({
    agentUrl: server.agentUrl,
    tls: { ca: server.caPem, cert: identity.cert, key: identity.key },
    nodeName,
    engines: enginePorts,
  });
  const anonymous = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${server.apiUrl}/api/trpc` })],
  });
  const { token } = await anonymous.auth.login.mutate({
    username: "admin",
    password: ADMIN_PASSWORD,
  });
  const api = createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: `${server.apiUrl}/api/trpc`, headers: { authorization: `Bearer ${token}` } }),
    ],
  });
  const weights = join((await tempDir("bench-weights")).path, "bench.safetensors");
  await writeFile(weights, "the benchmark engine reads no weights");
  for (const model of enginePorts.keys()) {
    await api.models.add.mutate({
      definition: {
        name: model,
        source: `file://${weights}`,
        profiles: [
          {
            name: "bench",
            engine: "sim",
            gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
            gpus: 1,
          },
        ],
        replicas: { min: 1, max: 1 },
      },
    });
    await waitFor(
      async () =>
        (await api.replicas.list.query({ model })).some((r) => r.phase === "ready" && r.endpoint),
      { what: `a ready replica of ${model}`, timeoutMs: 60_000 },
    );
  }
  // Limits are on and checked on every request, set high enough that the load never reaches them.
  const { key } = await api.keys.create.mutate({
    owner: "team:bench",
    models: ["bench-*"],
    requestsPerMinute: 10_000_000,
    tokensPerMinute: 1_000_000_000,
    concurrentMax: 100_000,
  });
  return { server, agent, key, api };
}

type Api = ReturnType<typeof createTRPCClient<AppRouter>>;

/**
 * `cores`: where the client's side (engines, bare server) and the gateways run (cores.ts), or null.
 * `llmgw`: how both llmgw servers are started (a release or the checkout, llmgw-command.ts).
 * `cpuProfDir`: where the llmgw with checks on writes a V8 CPU profile of its whole run.
 */
export async function startFleet(
  log: (line: string) => void,
  cores: CorePlan | null,
  llmgw: LlmgwCommand,
  cpuProfDir?: string,
): Promise<Fleet> {
  const clientCores = cores?.client ?? null;
  const gatewayCores = cores?.gateways ?? null;
  const processes: SpawnedProcess[] = [];
  const agents: StandInAgent[] = [];
  const stop = async () => {
    for (const agent of agents) agent.close();
    await Promise.all(processes.map((proc) => proc.stop()));
  };
  try {
    const names = Object.keys(ENGINES) as EngineName[];
    const engines = names.map((name) =>
      node("engine.ts", ["--delay-ms", String(ENGINES[name])], `engine ${name}`, clientCores),
    );
    processes.push(...engines);
    const enginePorts = await Promise.all(engines.map(listening));
    const enginePort = Object.fromEntries(
      names.map((name, at) => [name, enginePorts[at]]),
    ) as Record<EngineName, number>;
    log(`engines on ${enginePort.instant} (instant) and ${enginePort.slow} (20 ms)`);
    const bares = names.map((name) =>
      node(
        "bare-proxy.ts",
        ["--upstream", `http://127.0.0.1:${enginePort[name]}`],
        `bare proxy ${name}`,
        gatewayCores,
      ),
    );
    processes.push(...bares);
    const portkeyPort = await freePort();
    const portkey = node(
      "portkey.ts",
      ["--server", PORTKEY, "--port", String(portkeyPort)],
      "portkey",
      gatewayCores,
    );
    processes.push(portkey);
    // Replicas of other models (the size axis) answer here, apart from the measured engine.
    const others = node("engine.ts", [], "engine for other models", clientCores);
    const bareServer = node("bare-server.ts", [], "bare server", clientCores);
    processes.push(others, bareServer);
    const modelPorts = new Map(names.map((name) => [MODEL[name], enginePort[name]]));
    const [on, off, barePorts, , othersPort, bareServerPort] = await Promise.all([
      startLlmgw(llmgw, modelPorts, false, gatewayCores, cpuProfDir),
      startLlmgw(llmgw, modelPorts, true, gatewayCores),
      Promise.all(bares.map(listening)),
      listening(portkey),
      listening(others),
      listening(bareServer),
    ]);
    const barePort = Object.fromEntries(names.map((name, at) => [name, barePorts[at]])) as Record<
      EngineName,
      number
    >;
    processes.push(on.server.process, off.server.process);
    agents.push(on.agent, off.agent);
    // The server names its allocator on its listening line (jemalloc when a release's launcher
    // preloaded it).
    const allocators = [on, off].map(
      ({ server }) => /memory allocator (\w+)/.exec(server.process.output())?.[1] ?? "unknown",
    );
    log(
      `llmgw from the ${llmgw.from} on ${on.server.httpPort} (checks on) and ${off.server.httpPort} (checks off), allocator ${allocators.join(" and ")}`,
    );
    log(`Portkey ${PORTKEY_VERSION} on ${portkeyPort}`);
    const target = (
      name: string,
      origin: string,
      proc: SpawnedProcess,
      headers: Record<string, string> = {},
    ): Target => ({
      name,
      origin,
      path: CHAT,
      headers,
      pid: proc.pid,
    });
    const engineProcess = (engine: EngineName) => engines[names.indexOf(engine)] ?? others;
    const bareProcess = (engine: EngineName) => bares[names.indexOf(engine)] ?? others;
    const targetsOf = (engine: EngineName): Target[] => [
      target("direct", `http://127.0.0.1:${enginePort[engine]}`, engineProcess(engine), {
        authorization: "Bearer engine",
      }),
      target("llmgw", on.server.apiUrl, on.server.process, { authorization: `Bearer ${on.key}` }),
      target("bare proxy", `http://127.0.0.1:${barePort[engine]}`, bareProcess(engine), {
        authorization: "Bearer engine",
      }),
      target("Portkey", `http://127.0.0.1:${portkeyPort}`, portkey, {
        authorization: "Bearer engine",
        "x-portkey-provider": "openai",
        "x-portkey-custom-host": `http://127.0.0.1:${enginePort[engine]}/v1`,
      }),
    ];
    return {
      targets: { instant: targetsOf("instant"), slow: targetsOf("slow") },
      // No key: with the checks off, any bearer token is let in.
      llmgwChecksOff: target("llmgw, checks off", off.server.apiUrl, off.server.process, {
        authorization: "Bearer no-such-key",
      }),
      bareServer: target("bare server", `http://127.0.0.1:${bareServerPort}`, bareServer),
      async grow(count) {
        const grown = await growFleet(on.server, on.api, count, othersPort);
        agents.push(...grown.agents);
        return grown.others;
      },
      portkeyVersion: PORTKEY_VERSION,
      llmgwAllocators: allocators,
      llmgwOutput: () =>
        [on, off]
          .map(({ server }) => server.process.output().split("\n").slice(-30).join("\n"))
          .join("\n"),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
