// The memory benchmark (P10): `tsx memory/run.ts [--agents 2000] [--keys 10000] [--minutes 30]
// [--stores pglite,postgres] [--from release|checkout] [--release DIR] [--gc] [--snapshots DIR] [--smoke] [--no-write]
// [--results FILE] [--combine FILE,FILE]` starts a control
// plane on each store in turn and reads its memory at rest, with N simulated agents heartbeating,
// then with K API keys each used once on /v1 (so the key lookup has seen them all), and then once a
// minute while the agents keep beating and a trickle of requests uses the keys at random; it
// reports the least-squares slope of those minutes. Each reading splits the node process's RSS into
// V8's heap and external memory (buffers, and PGlite's WebAssembly memory). It writes its section
// of docs/benchmarks.md. `--gc` forces a full garbage collection before each reading, through the
// server's inspector (opened on loopback for the bench only); `--snapshots DIR` also writes a heap
// snapshot at each stage into DIR and, once the run is over, what heap-top.ts makes of each (a
// .txt beside it). `--smoke` runs 20 agents, 200 keys and one minute, and fails only when a
// reading is missing or an agent or key never worked. `--results FILE` also keeps what the run
// found as JSON; `--combine A,B` writes one section from such files, for one store a process run
// side by side (each run's own write would replace the other's).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { TRPCClient } from "@trpc/client";
import type { AppRouter } from "@llmgw/api";
import { cleanupAll, rssSlope, startPostgres } from "@llmgw/testing";
import { withBenchSection } from "../section";
import { adminApi, HEARTBEAT_INTERVAL_MS, joinNodes, startLlmgw } from "../agents/fleet";
import { connectWithRetries } from "../agents/measure";
import { SimAgent } from "../agents/sim-agent";
import { buildRelease } from "../release/build";
import { memorySection, type RunInfo, type StoreResult } from "./report";
import { readHeapSnapshot } from "./heap-graph";
import { summarize, summaryText } from "./heap-top";
import { Inspector, INSPECT_FLAG, INSPECTOR_LISTENING } from "./inspector";
import { sampleMemory, vmRssBytes, type MemorySample } from "./sample";
import { eachAtOnce } from "../each-at-once";

const COMMAND = "npm run bench:memory";
const ROOT = join(import.meta.dirname, "..", "..");
const DOCS = join(ROOT, "docs", "benchmarks.md");
const KEYS_AT_ONCE = 8;
const SETTLE_MS = 15_000;
/** How long agents that failed to connect keep dialing again. */
const CONNECT_RETRY_MS = 30_000;

const startedMs = Date.now();
const log = (line: string) =>
  console.error(`memory bench: ${((Date.now() - startedMs) / 1000).toFixed(0)} s: ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ");

async function makeKeys(api: TRPCClient<AppRouter>, count: number): Promise<string[]> {
  const keys: string[] = [];
  await eachAtOnce(
    Array.from({ length: count }, (_, at) => at),
    KEYS_AT_ONCE,
    async (at) => {
      const created = await api.keys.create.mutate({
        owner: `team:bench-${at % 50}`,
        models: ["*"],
      });
      keys.push(created.key);
    },
  );
  return keys;
}

/** Each key asks /v1/models once; answers how many were refused. */
async function useKeys(v1Url: string, keys: string[]): Promise<number> {
  let refused = 0;
  await eachAtOnce(keys, KEYS_AT_ONCE, async (key) => {
    const response = await fetch(`${v1Url}/models`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await response.arrayBuffer();
    if (!response.ok) refused += 1;
  });
  return refused;
}

interface Options {
  agents: number;
  keys: number;
  minutes: number;
  command: string | undefined;
  gc: boolean;
  snapshotDir: string | undefined;
  /** The snapshots written, for heap-top once the run is over. */
  snapshots: string[];
}

async function measureStore(
  store: "pglite" | "postgres",
  options: Options,
  problems: string[],
): Promise<StoreResult> {
  const env: Record<string, string> = {};
  if (store === "postgres") env.DATABASE_URL = (await startPostgres()).url;
  // The cap on unregistered sockets per address covers the joins' keep-alive sockets as well.
  if (options.gc) env.NODE_OPTIONS = INSPECT_FLAG;
  const { server } = await startLlmgw(options.agents * 2 + 16, [], {
    env,
    command: options.command,
  });
  // The server names its allocator on its listening line (jemalloc when the release's launcher
  // preloaded it; LLMGW_MALLOC=system in the bench's environment keeps glibc's).
  const allocator = /memory allocator (\w+)/.exec(server.process.output())?.[1] ?? "unknown";
  log(`${store}: the server runs on the ${allocator} allocator`);
  let inspector: Inspector | undefined;
  /** A reading (after a forced collection with --gc) and, with --snapshots, a heap snapshot. */
  const read = async (stage?: string) => {
    // What the server holds as it runs: V8 collects only when its heuristics say so.
    const rssBeforeGcBytes = inspector ? vmRssBytes(server.process.pid) : undefined;
    await inspector?.collectGarbage();
    const sample = { ...(await sampleMemory(server.apiUrl, server.process.pid)), rssBeforeGcBytes };
    if (stage && inspector && options.snapshotDir) {
      const path = join(options.snapshotDir, `${store}-${stage}.heapsnapshot`);
      await inspector.heapSnapshot(path);
      options.snapshots.push(path);
      log(`${store}: wrote ${path}`);
    }
    return sample;
  };
  let agents: SimAgent[] = [];
  try {
    if (options.gc) {
      const match = await server.process.waitForOutput(INSPECTOR_LISTENING, 10_000);
      inspector = await Inspector.connect(match[1] ?? "");
    }
    await sleep(SETTLE_MS);
    const atRest = await read("1-at-rest");
    log(
      `${store}: at rest ${(atRest.rssBytes / 2 ** 20).toFixed(0)} MiB; joining ${options.agents} agents`,
    );
    const nodes = await joinNodes(server, nodeNames(options.agents));
    agents = nodes.map(
      (node, at) => new SimAgent(node.nodeId, node.tls, HEARTBEAT_INTERVAL_MS, at + 1),
    );
    // A handshake that misses the agent port's 10 s window on a loaded machine is dialed again.
    problems.push(
      ...(await connectWithRetries(
        agents,
        { url: server.agentUrl, isAcked: true },
        HEARTBEAT_INTERVAL_MS,
        CONNECT_RETRY_MS,
      )),
    );
    await sleep(SETTLE_MS);
    const withAgents = await read("2-with-agents");
    log(
      `${store}: with agents ${(withAgents.rssBytes / 2 ** 20).toFixed(0)} MiB; ${options.keys} keys`,
    );
    const api = await adminApi(server.apiUrl);
    const keys = await makeKeys(api, options.keys);
    const refused = await useKeys(`${server.apiUrl}/v1`, keys);
    if (refused > 0)
      problems.push(`${store}: ${refused} of ${keys.length} keys were refused on /v1/models`);
    await sleep(SETTLE_MS);
    const withKeys = await read("3-with-keys");
    log(`${store}: with keys ${(withKeys.rssBytes / 2 ** 20).toFixed(0)} MiB; trickle`);
    const minutes: Array<{ atMin: number; sample: MemorySample }> = [];
    const trickleStart = Date.now();
    for (let minute = 1; minute <= options.minutes; minute++) {
      while (Date.now() - trickleStart < minute * 60_000) {
        await useKeys(`${server.apiUrl}/v1`, [keys[Math.floor(Math.random() * keys.length)] ?? ""]);
        await sleep(50);
      }
      const stage = minute === options.minutes ? "4-after-trickle" : undefined;
      const sample = await read(stage);
      minutes.push({ atMin: minute, sample });
      // Each minute in the log as well: a run stopped before its end still leaves its readings.
      const running = sample.rssBeforeGcBytes ?? sample.rssBytes;
      log(
        `${store}: minute ${minute}: ${(sample.rssBytes / 2 ** 20).toFixed(0)} MiB, ${(running / 2 ** 20).toFixed(0)} as running, V8 heap used ${(sample.heapUsedBytes / 2 ** 20).toFixed(0)}`,
      );
    }
    const slopeMibPerMin = rssSlope(
      minutes.map(({ atMin, sample }) => ({ atMin, mib: sample.rssBytes / 2 ** 20 })),
    );
    return {
      store,
      allocator,
      atRest,
      withAgents,
      withKeys,
      minutes: minutes.map((m) => m.sample),
      slopeMibPerMin,
    };
  } finally {
    inspector?.close();
    for (const agent of agents) agent.drop();
    await server.process.stop();
  }
}

function nodeNames(count: number): string[] {
  return Array.from({ length: count }, (_, at) => `mem-${String(at).padStart(5, "0")}`);
}

interface Outcome {
  info: RunInfo;
  results: StoreResult[];
  problems: string[];
}

/** Measures each store named, one after the other, in this process. */
async function measureAll(values: Values): Promise<Outcome> {
  const agents = values.smoke ? 20 : Number(values.agents);
  const keyCount = values.smoke ? 200 : Number(values.keys);
  const minutes = values.smoke ? 1 : Number(values.minutes);
  const stores = values.stores.split(",");
  if (![agents, keyCount, minutes].every((n) => Number.isInteger(n) && n >= 1))
    throw new Error("--agents, --keys and --minutes take whole numbers ≥ 1");
  if (stores.some((s) => s !== "pglite" && s !== "postgres"))
    throw new Error(
      `--stores takes pglite, postgres or both (comma-separated), not ${values.stores}`,
    );
  if (values.from !== "release" && values.from !== "checkout")
    throw new Error(`--from is release or checkout, not ${values.from}`);
  const cores = cpus();
  const machine = `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average (1 / 5 / 15 min) ${load()} at the start`;
  let command: string | undefined;
  if (values.from === "release") {
    // `--release DIR` reuses an unpacked release (two runs at once need not build twice).
    const releaseDir =
      values.release ?? (log("building a release"), (await buildRelease()).releaseDir);
    command = join(releaseDir, "bin", "llmgw");
  }
  const problems: string[] = [];
  const results: StoreResult[] = [];
  const snapshotDir = values.snapshots;
  if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
  const gc = values.gc || snapshotDir !== undefined;
  const snapshots: string[] = [];
  for (const store of stores as Array<"pglite" | "postgres">)
    results.push(
      await measureStore(
        store,
        { agents, keys: keyCount, minutes, command, gc, snapshotDir, snapshots },
        problems,
      ),
    );
  // Read after the run: the harness also hosts the agents, and a large snapshot takes a while.
  for (const path of snapshots) {
    const text = summaryText(summarize(readHeapSnapshot(path)));
    writeFileSync(path.replace(/\.heapsnapshot$/, ".txt"), `${text}\n`);
    log(`${path}:\n${text}`);
  }
  const date = new Date().toISOString().slice(0, 10);
  const info = { command: COMMAND, date, machine, loadAtEnd: load(), agents, keys: keyCount };
  return {
    info: { ...info, minutes, from: values.from, gc, sideBySide: false },
    results,
    problems,
  };
}

/**
 * Two bench processes, one store each, run side by side (`--results FILE` each); this joins what
 * they wrote into one section: the load at the start as the first file read it, at the end as the
 * last file read it (name them in the order the runs started and ended).
 */
function combine(files: string[]): Outcome {
  const outcomes = files.map((file) => JSON.parse(readFileSync(file, "utf8")) as Outcome);
  const [first, ...others] = outcomes;
  if (!first) throw new Error("--combine takes the files that --results wrote, comma-separated");
  const settings = (info: RunInfo) =>
    JSON.stringify([info.agents, info.keys, info.minutes, info.from, info.gc]);
  const differing = others.find((other) => settings(other.info) !== settings(first.info));
  if (differing)
    throw new Error(
      `--combine: the runs' settings differ (agents, keys, minutes, from, gc): ${settings(first.info)} and ${settings(differing.info)}`,
    );
  const last = outcomes.at(-1) ?? first;
  return {
    info: { ...first.info, loadAtEnd: last.info.loadAtEnd, sideBySide: outcomes.length > 1 },
    results: outcomes.flatMap((o) => o.results),
    problems: outcomes.flatMap((o) => o.problems),
  };
}

type Values = ReturnType<typeof parseOptions>;

function parseOptions() {
  return parseArgs({
    options: {
      agents: { type: "string", default: "2000" },
      keys: { type: "string", default: "10000" },
      minutes: { type: "string", default: "30" },
      stores: { type: "string", default: "pglite,postgres" },
      from: { type: "string", default: "release" },
      release: { type: "string" },
      smoke: { type: "boolean", default: false },
      gc: { type: "boolean", default: false },
      snapshots: { type: "string" },
      results: { type: "string" },
      combine: { type: "string" },
      "no-write": { type: "boolean", default: false },
    },
  }).values;
}

async function main(): Promise<number> {
  const values = parseOptions();
  const outcome = values.combine ? combine(values.combine.split(",")) : await measureAll(values);
  if (values.results) writeFileSync(values.results, `${JSON.stringify(outcome)}\n`);
  const section = memorySection(outcome.results, outcome.info);
  console.log(section);
  if (outcome.problems.length > 0) {
    console.error(`memory bench: errors:\n  ${outcome.problems.slice(0, 20).join("\n  ")}`);
    return 1;
  }
  if (!values.smoke && !values["no-write"]) {
    writeFileSync(DOCS, await withBenchSection("memory", readFileSync(DOCS, "utf8"), section));
    log(`wrote ${DOCS}`);
  }
  return 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error(`memory bench: ${error instanceof Error ? error.stack : String(error)}`);
    await cleanupAll();
    process.exitCode = 1;
  });
