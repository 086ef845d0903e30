// Where the server's native memory goes, by stage: `tsx memory/jemalloc-stages.ts --release DIR
// [--agents 300] [--store postgres|pglite] --out DIR [--malloc-conf OPTIONS] [--profile]
// [--beat-seconds 30] [--shim FILE.so] [--node-options FLAGS]` starts a release's server (on
// jemalloc, as its launcher runs it) and, after a forced collection at each stage (at rest; N nodes
// joined but not connected; N agents beating; --beat-seconds later, with the server's CPU time a
// heartbeat over them), writes into DIR the server's /proc smaps and
// smaps_rollup, V8's own account per space (`v8.getHeapSpaceStatistics()`, through the inspector)
// and jemalloc's totals (`malloc_stats_print`, called through gdb), and prints one line a stage
// with the server's CPU time, the same reading as the server ran just before the collection (V8's
// heap also read through the inspector before and after that reading's /metrics scrape), and the
// size of a /metrics answer.
// `--malloc-conf` sets jemalloc's options (MALLOC_CONF, in place of the launcher's);
// `--node-options` adds node flags. `--profile` turns on jemalloc's heap profiler (Debian's
// libjemalloc2 is built with it) and dumps a profile a stage: compare two with
// `jeprof --text --base=A.heap $(command -v node) B.heap` (jeprof: Debian's libjemalloc-dev).
// `--shim` preloads new-arrays-shim.c's build and writes, a stage, the live `new[]` arrays by size
// with their resident bytes. `--stats-opts` picks what malloc_stats_print writes (its opts string;
// "gmdablxe" by default: the totals only; "gdaxeh" adds the merged arenas' bins and large classes).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cleanupAll, startPostgres } from "@llmgw/testing";
import { connectJoined, joinNodes, startLlmgw } from "../agents/fleet";
import type { SimAgent } from "../agents/sim-agent";
import { Inspector, INSPECT_FLAG, INSPECTOR_LISTENING } from "./inspector";
import { anonymousSplit, sampleMemory } from "./sample";

/** V8's own account: each space's size, use and physical size, and what it mallocs. */
const V8_SPACES = `(() => {
  const v8 = process.getBuiltinModule("v8");
  return { heap: v8.getHeapStatistics(), spaces: v8.getHeapSpaceStatistics() };
})()`;
/** The process's user and system CPU time so far, in seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(stat[11]) + Number(stat[12])) / 100;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function gdbCall(pid: number, expression: string): string {
  const run = spawnSync("gdb", ["-p", String(pid), "-batch", "-ex", `call ${expression}`], {
    encoding: "utf8",
  });
  return `${run.stdout}${run.stderr}`;
}

async function main() {
  const { values } = parseArgs({
    options: {
      release: { type: "string" },
      agents: { type: "string", default: "300" },
      store: { type: "string", default: "postgres" },
      out: { type: "string" },
      "malloc-conf": { type: "string", default: "" },
      profile: { type: "boolean", default: false },
      shim: { type: "string" },
      "node-options": { type: "string", default: "" },
      "stats-opts": { type: "string", default: "gmdablxe" },
      "beat-seconds": { type: "string", default: "30" },
    },
  });
  if (!values.release || !values.out) throw new Error("--release DIR and --out DIR are needed");
  const out = values.out;
  mkdirSync(out, { recursive: true });
  const count = Number(values.agents);
  const env: Record<string, string> = {
    NODE_OPTIONS: `${INSPECT_FLAG} ${values["node-options"]}`.trim(),
  };
  const conf = [
    values["malloc-conf"],
    values.profile ? `prof:true,lg_prof_sample:14,prof_prefix:${join(out, "jeprof")}` : "",
  ].filter((part) => part !== "");
  if (conf.length > 0) env.MALLOC_CONF = conf.join(",");
  if (values.shim) env.LD_PRELOAD = values.shim;
  if (values.store === "postgres") env.DATABASE_URL = (await startPostgres()).url;
  const { server } = await startLlmgw(count * 2 + 16, [], {
    env,
    command: join(values.release, "bin", "llmgw"),
  });
  const pid = server.process.pid;
  const match = await server.process.waitForOutput(INSPECTOR_LISTENING, 10_000);
  const inspector = await Inspector.connect(match[1] ?? "");
  const lines: string[] = [];
  const heapTotalNow = async () =>
    Number(await inspector.evaluate("process.memoryUsage().heapTotal"));
  const stage = async (name: string) => {
    // As the server runs, before the forced collection: what V8 has committed and where RSS is.
    // V8's heap reserved read through the inspector next to the smaps, before and after the
    // /metrics scrape the reading makes (its own allocations come after its heap figures).
    const runningHeapBefore = await heapTotalNow();
    const runningSplitBefore = anonymousSplit(pid);
    const running = await sampleMemory(server.apiUrl, pid);
    const runningSplit = anonymousSplit(pid);
    const runningHeap = await heapTotalNow();
    await inspector.collectGarbage();
    await sleep(2_000);
    const sample = await sampleMemory(server.apiUrl, pid);
    const split = anonymousSplit(pid);
    const heapNow = await heapTotalNow();
    const splitAgain = anonymousSplit(pid);
    const before = new Set(readdirSync(out));
    if (values.profile) gdbCall(pid, '(int)mallctl("prof.dump", (void*)0, (void*)0, (void*)0, 0)');
    const dumped = readdirSync(out).find((f) => !before.has(f) && f.endsWith(".heap"));
    const mark = server.process.output().length;
    gdbCall(pid, `(void)malloc_stats_print((void*)0, (void*)0, "${values["stats-opts"]}")`);
    await sleep(500);
    const stats = server.process.output().slice(mark);
    if (values.shim) gdbCall(pid, `(int)shim_report("${join(out, `${name}.new-arrays`)}")`);
    const v8 = await inspector.evaluate(V8_SPACES);
    writeFileSync(join(out, `${name}.v8.json`), `${JSON.stringify(v8, null, 1)}\n`);
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const cpuS = cpuSeconds(pid);
    const threads = /^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    const asRunning = `as running, before /metrics: heap total ${mib(runningHeapBefore)}, at V8's addresses ${mib(runningSplitBefore.v8Kib * 1024)}, from the top ${mib(runningSplitBefore.mmapKib * 1024)}; /metrics: RSS ${mib(running.rssBytes)} MiB, heap total ${mib(running.heapTotalBytes)}; after it: heap total ${mib(runningHeap)}, at V8's addresses ${mib(runningSplit.v8Kib * 1024)}, from the top ${mib(runningSplit.mmapKib * 1024)}`;
    const afterNoMetrics = `without /metrics: heap total ${mib(heapNow)}, at V8's addresses ${mib(splitAgain.v8Kib * 1024)}, from the top ${mib(splitAgain.mmapKib * 1024)}`;
    const scrape = await (await fetch(`${server.apiUrl}/metrics`)).text();
    const series = scrape.split("\n").filter((l) => l !== "" && !l.startsWith("#")).length;
    const metricsLine = `/metrics answered ${mib(scrape.length)} MiB, ${series} series`;
    const line = `${name}: ${asRunning}; ${metricsLine}; after a collection: CPU ${cpuS.toFixed(1)} s, ${threads ?? "?"} threads, RSS ${mib(sample.rssBytes)} MiB, heap used ${mib(sample.heapUsedBytes)}, heap total ${mib(sample.heapTotalBytes)}, external ${mib(sample.externalBytes)}; anonymous resident at V8's addresses ${mib(split.v8Kib * 1024)}, from the top ${mib(split.mmapKib * 1024)}; ${afterNoMetrics}; jemalloc ${/Allocated:.*$/m.exec(stats)?.[0] ?? "?"}; profile ${dumped ?? "none"}`;
    console.error(line);
    lines.push(line);
    writeFileSync(join(out, `${name}.smaps_rollup`), rollup);
    writeFileSync(join(out, `${name}.smaps`), readFileSync(`/proc/${pid}/smaps`, "utf8"));
    writeFileSync(join(out, `${name}.stats`), stats);
  };
  const agents: SimAgent[] = [];
  try {
    await sleep(10_000);
    await stage("1-at-rest");
    const nodes = await joinNodes(
      server,
      Array.from({ length: count }, (_, at) => `jm-${at}`),
    );
    await sleep(5_000);
    await stage("2-joined");
    await connectJoined(agents, server, nodes);
    await sleep(15_000);
    await stage("3-beating");
    const beatSeconds = Number(values["beat-seconds"]);
    const cpuBefore = cpuSeconds(pid);
    await sleep(beatSeconds * 1000);
    const cpuPerBeatUs = ((cpuSeconds(pid) - cpuBefore) / ((count * beatSeconds) / 2)) * 1e6;
    const cpuLine = `between: ${beatSeconds} s of beating, server CPU ${cpuPerBeatUs.toFixed(1)} µs a heartbeat (every agent beats every 2 s)`;
    console.error(cpuLine);
    lines.push(cpuLine);
    await stage("4-beating-later");
    writeFileSync(join(out, "stages.txt"), `${lines.join("\n")}\n`);
  } finally {
    inspector.close();
    for (const agent of agents) agent.drop();
    await server.process.stop();
    await cleanupAll();
  }
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  await cleanupAll();
  process.exitCode = 1;
});
