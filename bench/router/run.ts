// The router benchmark (P1–P5): `tsx router/run.ts` starts the engines, llmgw, a bare proxy and
// Portkey's gateway side by side, measures them in one run, prints markdown tables and writes them
// to docs/benchmarks.md. `--smoke` runs every part once and briefly for CI: it fails on an error or
// a wrong answer, never on a slow one. `--quick` runs the full method with 1-2 s runs and a small
// size axis, to try a change to the benchmark without a quiet machine; it writes nothing.
// `--cpu-prof DIR` has the llmgw with checks on write a V8 CPU profile of its run into DIR.
// `--from release|checkout` (default release): both llmgw servers from a release built here, as
// operators install it, or from the checkout through tsx; `--release DIR` reuses an unpacked one.
import { withBenchSection } from "../section";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cleanupAll } from "@llmgw/testing";
import { describeCores, pinBenchmark } from "./cores";
import { MODEL, startFleet, type Fleet } from "./fleet";
import { llmgwCommand, parseFrom, type LlmgwCommand } from "./llmgw-command";
import { readLoopDelay } from "./size";
import { judgeRun, roleOf } from "./judge";
import {
  chatBody,
  inPairs,
  median,
  oneAtATime,
  p50,
  p99,
  type Load,
  type OneAtATime,
  type Paired,
  type Target,
} from "./measure";
import { medianOf, threadMedians, timedRun } from "./timed-run";
import { FULL, QUICK, SMOKE } from "./sizes";
import {
  barsTable,
  cpuTable,
  oneAtATimeTable,
  routerSection,
  sizeTable,
  threadTable,
  underLoadTable,
  type LoadSummary,
  type RouterResults,
  type RunInfo,
  type SizeResult,
  type TargetResult,
} from "./report";

const COMMAND = "node scripts/pnpm.mjs --filter @llmgw/bench exec tsx router/run.ts";
const DOCS = join(import.meta.dirname, "..", "..", "docs", "benchmarks.md");
const AUTOCANNON_VERSION = (
  createRequire(import.meta.url)("autocannon/package.json") as { version: string }
).version;

/** After a timed run, the target finishes the requests it cut before the next run starts. */
const SETTLE_MS = 300;
const CONNECTIONS = { saturated: 50, slow: 50, streams: 200 };
/** The client's side of a scenario: this process (the load generator) and its engine (direct's). */
const clientPids = (targets: readonly Target[]) =>
  [process.pid, targets[0]?.pid].flatMap((pid) => (pid === undefined ? [] : [pid]));

function describeMachine(): string {
  const cores = cpus();
  const memoryGib = Math.round(totalmem() / 2 ** 30);
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGib} GiB, Node ${process.version}, load average ${load} at the start`;
}

type Scenario = "saturated" | "slow" | "streams";

const startedMs = Date.now();
const log = (line: string) =>
  console.error(`router bench: ${((Date.now() - startedMs) / 1000).toFixed(0)} s: ${line}`);

/** A load error is a problem unless it is a competitor's under a full run: that goes in its row. */
interface LoadError {
  target: string;
  what: string;
}

async function measure(
  fleet: Fleet,
  size: typeof FULL,
  problems: string[],
  loadErrors: LoadError[],
): Promise<RouterResults> {
  const notes: string[] = [];
  const instant = fleet.targets.instant;
  const plain = chatBody(MODEL.instant, false);
  const stream = chatBody(MODEL.instant, true);
  const paced = { block: size.block, blockWarmup: size.blockWarmup };
  log(`one at a time: ${size.count} requests per gateway, each taking turns with direct`);
  const single = await inPairs(
    instant,
    plain,
    { count: size.count, warmup: size.warmup, stream: false, ...paced },
    problems,
  );
  log(`one at a time: ${size.streams} streams per gateway, each taking turns with direct`);
  const streams = await inPairs(
    instant,
    stream,
    { count: size.streams, warmup: Math.min(size.warmup, 50), stream: true, ...paced },
    problems,
  );
  const scenarios: Array<{
    scenario: Scenario;
    targets: Target[];
    body: string;
    connections: number;
  }> = [
    {
      scenario: "saturated",
      targets: [...instant, fleet.llmgwChecksOff, fleet.bareServer],
      body: plain,
      connections: CONNECTIONS.saturated,
    },
    {
      scenario: "slow",
      targets: fleet.targets.slow,
      body: chatBody(MODEL.slow, false),
      connections: CONNECTIONS.slow,
    },
    { scenario: "streams", targets: instant, body: stream, connections: CONNECTIONS.streams },
  ];
  const loads = new Map<string, Load[]>();
  const key = (scenario: Scenario, target: string) => `${scenario}/${target}`;
  const runs = async (round: number | "warm-up") => {
    for (const { scenario, targets, body, connections } of scenarios) {
      const durationS = round === "warm-up" ? size.warmupS : size.durationS;
      const at = round === "warm-up" ? "warm-up" : `round ${round + 1}`;
      const each = durationS === 0 ? "one request each" : `${durationS} s each`;
      log(`${at}: ${scenario}, ${connections} connections, ${each}`);
      for (const target of targets) {
        const pace = { connections, durationS, settleMs: SETTLE_MS };
        const result = await timedRun(target, body, pace, clientPids(targets));
        const run = `${target.name} (${scenario}, ${at})`;
        const role = roleOf(target.name, fleet);
        const judged = round === "warm-up" ? null : judgeRun(result, connections, size, role);
        if (judged?.problem) problems.push(`${run}: ${judged.problem}`);
        if (judged?.note) {
          log(`${run}: ${judged.note}`);
          notes.push(`${run}: ${judged.note}.`);
        }
        if (result.errors > 0 || result.non2xx > 0)
          loadErrors.push({
            target: target.name,
            what: `${run}: ${result.non2xx} answers not 2xx ${JSON.stringify(result.refusals)}, ${result.errors} errors (${result.timeouts} of them no answer within 10 s, the others connections failed or cut by the target)`,
          });
        if (round === "warm-up") continue;
        loads.set(key(scenario, target.name), [
          ...(loads.get(key(scenario, target.name)) ?? []),
          result,
        ]);
      }
    }
  };
  if (size.warmupS > 0) await runs("warm-up");
  for (let round = 0; round < size.rounds; round += 1) await runs(round);
  const summary = (
    scenario: Scenario,
    target: string,
    against = "direct",
  ): LoadSummary | undefined => {
    const runs = loads.get(key(scenario, target));
    const base = loads.get(key(scenario, against));
    if (!runs || !base) return undefined;
    return {
      rps: median(runs.map((r) => r.rps)),
      vsDirect: median(runs.map((r, at) => r.rps / (base[at]?.rps ?? Number.NaN))),
      p50Ms: median(runs.map((r) => r.p50Ms)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      errors: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
      cpuUsPerAnswer: medianOf(runs, (r) => r.cpuUsPerAnswer),
      mainThread: threadMedians(runs),
      clientCpuUsPerAnswer: medianOf(runs, (r) => r.clientCpuUsPerAnswer),
    };
  };
  const targets: TargetResult[] = instant.map((target) => {
    const one = single.get(target.name);
    const str = streams.get(target.name);
    // Added: against direct's requests in the same pairs (none for direct itself).
    const added = (
      figure: (ms: readonly number[]) => number,
      of: (taken: OneAtATime) => number[],
      taken?: Paired,
    ) =>
      target.name === "direct" || !taken
        ? Number.NaN
        : figure(of(taken.own)) - figure(of(taken.direct));
    const latency = (taken: OneAtATime) => taken.latencyMs;
    const firstByte = (taken: OneAtATime) => taken.firstByteMs;
    return {
      name: target.name,
      latencyP50Ms: p50(one?.own.latencyMs ?? []),
      latencyP99Ms: p99(one?.own.latencyMs ?? []),
      addedP50Ms: added(p50, latency, one),
      addedP99Ms: added(p99, latency, one),
      ttftP50Ms: p50(str?.own.firstByteMs ?? []),
      ttftP99Ms: p99(str?.own.firstByteMs ?? []),
      ttftAddedP50Ms: added(p50, firstByte, str),
      eventCounts: [...(str?.own.eventCounts ?? [])].sort((a, b) => a - b),
      saturated: summary("saturated", target.name),
      slow: summary("slow", target.name),
      streams: summary("streams", target.name),
    };
  });
  const checksOffName = fleet.llmgwChecksOff.name;
  const checksOff = summary("saturated", checksOffName);
  const onVsOff = summary("saturated", "llmgw", checksOffName);
  const bareServer = summary("saturated", fleet.bareServer.name);
  if (!checksOff || !onVsOff || !bareServer) throw new Error("no P5 measurement was taken");
  return {
    targets,
    checksOff,
    checksOnVsOff: onVsOff.vsDirect,
    bareServer,
    sizes: await sizeAxis(fleet, size, problems),
    rounds: size.rounds,
    durationS: size.durationS,
    warmupS: size.warmupS,
    answersPerConnectionMin: size.answersPerConnectionMin,
    shortRuns: notes,
    settleMs: SETTLE_MS,
    oneAtATimeCount: size.count,
    streamCount: size.streams,
    pairBlock: size.block,
    pairBlockWarmup: size.blockWarmup,
    pairWarmup: size.warmup,
  };
}

/**
 * The same engine behind llmgw with only its own replica, then with `others` replicas of other
 * models: direct and llmgw taking turns at each size, so the added latency is read at both.
 */
async function sizeAxis(
  fleet: Fleet,
  size: typeof FULL,
  problems: string[],
): Promise<SizeResult[]> {
  const pair = fleet.targets.instant.filter((t) => t.name === "direct" || t.name === "llmgw");
  const plain = chatBody(MODEL.instant, false);
  const at = async (others: number): Promise<SizeResult> => {
    log(`size axis: ${size.count} requests per target with ${others} replicas of other models`);
    const llmgwTarget = pair.find((t) => t.name === "llmgw");
    if (llmgwTarget) await readLoopDelay(llmgwTarget.origin);
    const taken = await oneAtATime(
      pair,
      plain,
      { count: size.count, warmup: size.warmup, stream: false },
      problems,
    );
    const direct = taken.get("direct")?.latencyMs ?? [];
    const llmgw = taken.get("llmgw")?.latencyMs ?? [];
    return {
      others,
      ...{ directP50Ms: p50(direct), directP99Ms: p99(direct) },
      ...{ llmgwP50Ms: p50(llmgw), llmgwP99Ms: p99(llmgw) },
      loopDelay: llmgwTarget ? await readLoopDelay(llmgwTarget.origin) : null,
    };
  };
  const alone = await at(0);
  log(`size axis: placing ${size.others} replicas of other models`);
  // A fleet that does not grow is a failed run, but the figures taken so far are still printed.
  const others = await fleet.grow(size.others).catch((error: unknown) => {
    problems.push(`the size axis could not grow the fleet: ${String(error)}`);
    return null;
  });
  return others === null ? [alone] : [alone, await at(others)];
}

/** P5 compares like with like only if the switch does what it says, and only that. */
async function checkTheSwitch(fleet: Fleet, problems: string[]): Promise<void> {
  const llmgw = fleet.targets.instant.find((target) => target.name === "llmgw");
  const off = fleet.llmgwChecksOff;
  const post = (target: Target, authorization: string) =>
    fetch(`${target.origin}${target.path}`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: chatBody(MODEL.instant, false),
    }).then(async (answer) => ({ status: answer.status, text: await answer.text() }));
  const refused = llmgw ? await post(llmgw, "Bearer no-such-key") : { status: 0, text: "" };
  const open = await post(off, "Bearer no-such-key");
  if (refused.status !== 401)
    problems.push(`llmgw let an unknown key in: ${refused.status} ${refused.text.slice(0, 200)}`);
  if (open.status !== 200 || !open.text.includes('"chat.completion"'))
    problems.push(`llmgw with checks off did not serve: ${open.status} ${open.text.slice(0, 200)}`);
}

/** The method paragraph's sentence on how the llmgw servers were started. */
function describeFrom(llmgw: LlmgwCommand, allocators: readonly string[]): string {
  const allocator = [...new Set(allocators)].join(" and ");
  return llmgw.from === "release"
    ? `Both llmgw servers ran from a release built from this checkout (\`scripts/release.mjs\`), as operators install it: its \`bin/llmgw\` launcher, one esbuild bundle, the launcher's V8 flags, on the ${allocator} allocator.`
    : `Both llmgw servers ran from the checkout through tsx (TypeScript compiled at start, with esbuild's keepNames), on the ${allocator} allocator, not from a release.`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      smoke: { type: "boolean", default: false },
      quick: { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      machine: { type: "string" },
      "cpu-prof": { type: "string" },
      others: { type: "string" },
      from: { type: "string", default: "release" },
      release: { type: "string" },
    },
  });
  const chosen = values.smoke ? SMOKE : values.quick ? QUICK : FULL;
  // `--others N`: the size axis's fleet alone, e.g. a quick run at the full run's size.
  const others = values.others === undefined ? chosen.others : Number(values.others);
  if (!Number.isInteger(others) || others < 1)
    throw new Error(
      `--others must be a whole number of replicas, at least 1, not ${values.others}`,
    );
  const size = { ...chosen, others };
  const machine = values.machine ? `${values.machine}; ${describeMachine()}` : describeMachine();
  const problems: string[] = [];
  const loadErrors: LoadError[] = [];
  const from = parseFrom(values.from);
  if (values.release !== undefined && from !== "release")
    throw new Error("--release DIR names a release to run; it goes with --from release");
  const cores = pinBenchmark();
  log(describeCores(cores));
  const llmgw = await llmgwCommand(from, values.release, log);
  const fleet = await startFleet(log, cores, llmgw, values["cpu-prof"]);
  let results: RouterResults;
  try {
    await checkTheSwitch(fleet, problems);
    results = await measure(fleet, size, problems, loadErrors);
    if (loadErrors.some((error) => error.target.startsWith("llmgw")))
      console.error(`router bench: llmgw's last words:\n${fleet.llmgwOutput()}`);
  } finally {
    await fleet.stop();
  }
  const info: RunInfo = {
    command: COMMAND,
    date: new Date().toISOString().slice(0, 10),
    // The load at the end (its one-minute average) says whether the run stayed quiet.
    machine: `${machine} and ${loadavg()[0]?.toFixed(1) ?? "?"} at the end`,
    portkeyVersion: fleet.portkeyVersion,
    autocannonVersion: AUTOCANNON_VERSION,
    cores: describeCores(cores),
    llmgwFrom: describeFrom(llmgw, fleet.llmgwAllocators),
  };
  console.log(
    [
      oneAtATimeTable(results),
      underLoadTable(results),
      cpuTable(results),
      threadTable(results),
      sizeTable(results),
      barsTable(results),
    ].join("\n\n"),
  );
  const counts = new Set(results.targets.flatMap((t) => t.eventCounts));
  if (counts.size > 1)
    problems.push(`streams differ in SSE events per stream: ${[...counts].join(", ")}`);
  for (const error of loadErrors)
    if (values.smoke || error.target !== "Portkey") problems.push(error.what);
    else console.error(`router bench: counted in its row: ${error.what}`);
  if (problems.length > 0) {
    console.error(`router bench: errors:\n  ${problems.slice(0, 20).join("\n  ")}`);
    return 1;
  }
  if (!values.smoke && !values.quick && !values["no-write"]) {
    writeFileSync(
      DOCS,
      await withBenchSection("router", readFileSync(DOCS, "utf8"), routerSection(results, info)),
    );
    console.error(`router bench: wrote ${DOCS}`);
  }
  return 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error(`router bench: ${error instanceof Error ? error.stack : String(error)}`);
    await cleanupAll();
    process.exitCode = 1;
  });
