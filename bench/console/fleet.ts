// The fleet the console benchmark opens pages against: a real `llmgw server` (bench/agents'
// startLlmgw, PGlite in a temp home) with N stand-in nodes of 8 simulated cards each (bench/router's
// stand-in agent: real joins, mutual TLS, protobuf frames; registered as simulated, so the console
// labels them so; run on a thread of their own, stand-ins-thread.ts), models whose replicas the server's own reconciler places and the stand-ins report
// ready at a small local HTTP listener, and the console itself (`llmgw web`) pointed at the server.
import { createServer, type Server } from "node:http";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { freePort, spawnLlmgw, tempDir, waitFor, type SpawnedProcess } from "@llmgw/testing";
import { adminApi, joinNodes, startLlmgw } from "../agents/fleet";
import { waitForReady } from "./fleet-wait";
import { startStandInsThread, type StandInsThread } from "./stand-ins-thread";

export const CARDS_PER_NODE = 8;
const REPLICAS_PER_MODEL = 80;
const AGENTS_AT_ONCE = 16;
const WEB_START_MS = 120_000;
/**
 * Every replica's engine is one stub in this process, which also runs the 2,000 stand-ins: at
 * the server's default 3 s its gateway read 4,000 replicas' /metrics from it, 1,333 requests a
 * second that stalled the stand-ins' heartbeats. The console shows no engine queue figures, so
 * the benchmark reads them once a minute (the most the setting allows).
 */
const SCRAPE_INTERVAL_MS = 60_000;

export interface FleetSize {
  nodes: number;
  replicas: number;
}

export interface ConsoleFleet {
  apiUrl: string;
  consoleUrl: string;
  nodeIds: string[];
  api: Awaited<ReturnType<typeof adminApi>>;
  stop(): Promise<void>;
}

/** Answers every request with an empty 200: the replicas' "engine", never measured. */
async function startEngineStub(): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function connectStandIns(
  server: Awaited<ReturnType<typeof startLlmgw>>["server"],
  count: number,
  enginePort: number,
  log: (line: string) => void,
): Promise<{ standIns: StandInsThread; nodeIds: string[] }> {
  const names = Array.from(
    { length: count },
    (_, i) => `bench-console-${String(i).padStart(4, "0")}`,
  );
  const joined = await joinNodes(server, names);
  log(`console bench: ${joined.length} nodes joined`);
  const standIns = await startStandInsThread(
    {
      ...{ agentUrl: server.agentUrl, nodes: joined, enginePort },
      ...{ cardCount: CARDS_PER_NODE, atOnce: AGENTS_AT_ONCE },
    },
    log,
  );
  return { standIns, nodeIds: joined.map((node) => node.nodeId) };
}

async function addModels(api: ConsoleFleet["api"], replicas: number): Promise<void> {
  const weights = join((await tempDir("bench-console-weights")).path, "console.safetensors");
  await writeFile(weights, "the benchmark engine reads no weights");
  for (let model = 0; model * REPLICAS_PER_MODEL < replicas; model += 1) {
    const count = Math.min(REPLICAS_PER_MODEL, replicas - model * REPLICAS_PER_MODEL);
    await api.models.add.mutate({
      definition: {
        name: `bench-console-${model}`,
        source: `file://${weights}`,
        profiles: [
          {
            ...{ name: "bench", engine: "sim", gpus: 1 },
            gpu: { min_compute_capability: 7.0, min_memory_gb: 16 },
          },
        ],
        replicas: { min: count, max: count },
      },
    });
  }
}

async function startConsole(apiUrl: string): Promise<{ process: SpawnedProcess; url: string }> {
  const port = await freePort();
  const web = spawnLlmgw(["web"], {
    env: { LLMGW_WEB_PORT: String(port), LLMGW_API_URL: apiUrl, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/sign-in`).catch(() => null))?.ok === true, {
    what: `the console to serve ${url}/sign-in`,
    timeoutMs: WEB_START_MS,
    intervalMs: 500,
  });
  return { process: web, url };
}

/** Starts everything and waits until the server lists every node and every replica ready. */
export async function startConsoleFleet(
  size: FleetSize,
  log: (line: string) => void,
): Promise<ConsoleFleet> {
  const engine = await startEngineStub();
  const { server } = await startLlmgw(size.nodes, [], {
    env: { LLMGW_SCRAPE_INTERVAL_MS: String(SCRAPE_INTERVAL_MS) },
  });
  let standIns: StandInsThread | undefined;
  let web: SpawnedProcess | undefined;
  const stop = async () => {
    await standIns?.close();
    engine.close();
    await Promise.all([server.process.stop(), web?.stop()]);
  };
  try {
    const api = await adminApi(server.apiUrl);
    const enginePort = (engine.address() as AddressInfo).port;
    const fleet = await connectStandIns(server, size.nodes, enginePort, log);
    standIns = fleet.standIns;
    await addModels(api, size.replicas);
    await waitForReady(api, size, log, fleet.standIns.takeStallMs);
    const console = await startConsole(server.apiUrl);
    web = console.process;
    return { apiUrl: server.apiUrl, consoleUrl: console.url, nodeIds: fleet.nodeIds, api, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
