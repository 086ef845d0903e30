// The agents benchmark (P7): `tsx agents/run.ts [--agents 2000] [--seconds 30] [--smoke]` starts a
// control plane and a bare `ws` server, joins N simulated agents, and measures CPU per heartbeat
// frame on both, how soon a heartbeat shows in the API, a reconnect storm and the server's memory.
// It writes its section of docs/benchmarks.md. `--smoke` runs 50 agents for a few seconds and
// fails only on a wrong answer (an agent never registered, a heartbeat never seen, a node lost).
// `--storm-only [--llmgw-command OTHER/packages/cli/bin/llmgw.mjs]` measures only the reconnect
// storm, against this checkout's server or another's, and writes nothing (storm-only.ts); there
// `--cpu-prof-dir DIR` profiles the server and `--trace-gc` puts its GC lines in its log.
// `--dials-per-turn N` (default 0: each dial when due) paces a storm's dials to the harness's event loop (dial-pacer.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { must } from "@llmgw/domain";
import { cleanupAll } from "@llmgw/testing";
import { withBenchSection } from "../section";
import { HEARTBEAT_INTERVAL_MS, joinNodes, startStand, type Stand } from "./fleet";
import {
  connectAll,
  connectWithRetries,
  DIALS_PER_TURN,
  dialSummary,
  reconnectStorm,
  steadyWindow,
  visibilityDelays,
} from "./measure";
import { groupUsage, overflowsSince } from "./proc";
import { agentsSection, sizesTable, barsTable, type SizeResult } from "./report";
import { SimAgent, type Target } from "./sim-agent";
import { stormOnly } from "./storm-only";

const COMMAND = "node scripts/pnpm.mjs --filter @llmgw/bench exec tsx agents/run.ts";
const DOCS = join(import.meta.dirname, "..", "..", "docs", "benchmarks.md");
const VISIBILITY_SAMPLE = 20;
/** How long agents that failed to connect to llmgw keep dialing again before the window. */
const CONNECT_RETRY_MS = 30_000;

const startedMs = Date.now();
const loopHistogram = monitorEventLoopDelay({ resolution: 10 });
loopHistogram.enable();
/** The bench's own event loop delay since the last call (p99 / max ms), then starts afresh. */
function loopDelay(): string {
  const text = `p99 ${(loopHistogram.percentile(99) / 1e6).toFixed(0)} / max ${(loopHistogram.max / 1e6).toFixed(0)} ms`;
  loopHistogram.reset();
  return text;
}
const log = (line: string) =>
  console.error(`agents bench: ${((Date.now() - startedMs) / 1000).toFixed(0)} s: ${line}`);

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ");

function describeMachine(): string {
  const cores = cpus();
  const memoryGib = Math.round(totalmem() / 2 ** 30);
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGib} GiB, Node ${process.version}, load average (1 / 5 / 15 min) ${load()} at the start`;
}

interface Options {
  agents: number;
  seconds: number;
  dialsPerTurn: number;
  isSmoke: boolean;
}

async function measureSize(
  stand: Stand,
  options: Options,
  problems: string[],
  shortfalls: string[],
): Promise<SizeResult> {
  const { server, bare, api } = stand;
  const names = Array.from(
    { length: options.agents },
    (_, at) => `sim-${String(at).padStart(5, "0")}`,
  );
  log(`${options.agents} agents: joining; the server's output goes to ${stand.serverLog}`);
  const nodes = await joinNodes(server, names);
  const agents = nodes.map(
    (node, at) => new SimAgent(node.nodeId, node.tls, HEARTBEAT_INTERVAL_MS, at + 1),
  );
  const bareTarget: Target = { url: bare.url, isAcked: false };
  const llmgwTarget: Target = { url: server.agentUrl, isAcked: true };
  const warmUpMs = HEARTBEAT_INTERVAL_MS * 2;

  log(`${options.agents} agents: bare ws, ${options.seconds} s window`);
  problems.push(
    ...(await connectAll(agents, bareTarget, HEARTBEAT_INTERVAL_MS)).map(
      (failure) => `connect: ${failure}`,
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, warmUpMs));
  const bareWindow = await steadyWindow(agents, bare.process.pid, options.seconds);
  for (const agent of agents) agent.drop();

  log(`${options.agents} agents: llmgw, ${options.seconds} s window`);
  const connectStartMs = Date.now();
  const connectOverflows = overflowsSince();
  loopDelay();
  // On a loaded machine a handshake can miss the agent port's 10 s window; a real agent dials again.
  problems.push(
    ...(await connectWithRetries(agents, llmgwTarget, HEARTBEAT_INTERVAL_MS, CONNECT_RETRY_MS)).map(
      (failure) => `connect: ${failure}`,
    ),
  );
  log(
    `${options.agents} agents: connected to llmgw in ${((Date.now() - connectStartMs) / 1000).toFixed(1)} s; ${dialSummary(agents)}; listen queue overflows ${connectOverflows()}; bench event loop delay ${loopDelay()}`,
  );
  await new Promise((resolve) => setTimeout(resolve, warmUpMs));
  const llmgwWindow = await steadyWindow(agents, server.process.pid, options.seconds);

  log(
    `${options.agents} agents: visibility in the API; bench event loop delay in the window ${loopDelay()}`,
  );
  const step = Math.max(1, Math.floor(agents.length / VISIBILITY_SAMPLE));
  const sample = agents.filter((_, at) => at % step === 0).slice(0, VISIBILITY_SAMPLE);
  const visibilityNotes: string[] = [];
  const visibleMs = await visibilityDelays(sample, api, problems, visibilityNotes);
  const slowest = visibilityNotes.sort((a, b) => Number.parseInt(b) - Number.parseInt(a));
  log(
    `${options.agents} agents: the slowest heartbeats to show:\n  ${slowest.slice(0, 3).join("\n  ")}`,
  );

  log(
    `${options.agents} agents: reconnect storm; bench event loop delay while polling ${loopDelay()}`,
  );
  const stormOverflows = overflowsSince();
  const storm = await reconnectStorm(agents, llmgwTarget, HEARTBEAT_INTERVAL_MS, api, {
    serverOutput: () => readFileSync(stand.serverLog, "utf8"),
    dialsPerTurn: options.dialsPerTurn,
    serverPid: server.process.pid,
  });
  log(
    `${options.agents} agents: storm: ${storm.registeredInDeadline} registered within 10 s, the last after ${(storm.lastRegisteredMs / 1000).toFixed(1)} s; ${storm.failedDials} dials failed${storm.failureReasons.length > 0 ? ` (${storm.failureReasons.join("; ")})` : ""}`,
  );
  log(
    `${options.agents} agents: storm: ${dialSummary(agents)}; listen queue overflows ${stormOverflows()}; bench event loop delay ${loopDelay()}`,
  );
  log(`${options.agents} agents: storm second by second:\n  ${storm.timeline.join("\n  ")}`);
  // Agents a storm lost are the storm bar's own measure (its table row says how many), so a full
  // run reports them there; a smoke run, which answers only whether the bench works, fails on them.
  const stormLosses = options.isSmoke ? problems : shortfalls;
  if (storm.registeredInTheEnd < storm.agents)
    stormLosses.push(
      `storm: ${storm.agents - storm.registeredInTheEnd} agents never registered again`,
    );
  if (storm.readyInApi < storm.agents)
    stormLosses.push(`storm: only ${storm.readyInApi} of ${storm.agents} nodes ready in the API`);
  const rssEndBytes = groupUsage(server.process.pid).rssBytes;
  for (const agent of agents) agent.drop();
  return {
    agents: options.agents,
    bare: bareWindow,
    llmgw: llmgwWindow,
    visibleMs,
    storm,
    rssEndBytes,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      agents: { type: "string", default: "2000" },
      seconds: { type: "string", default: "30" },
      smoke: { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      "cpu-prof-dir": { type: "string" },
      machine: { type: "string" },
      "storm-only": { type: "boolean", default: false },
      "llmgw-command": { type: "string" },
      "dials-per-turn": { type: "string", default: String(DIALS_PER_TURN) },
      "trace-gc": { type: "boolean", default: false },
    },
  });
  const sizes = values.smoke ? [50] : values.agents.split(",").map(Number);
  const seconds = values.smoke ? 4 : Number(values.seconds);
  const dialsPerTurn = Number(values["dials-per-turn"]);
  if (
    sizes.some((n) => !Number.isInteger(n) || n < 1) ||
    !(seconds > 0) ||
    !Number.isInteger(dialsPerTurn) ||
    dialsPerTurn < 0
  )
    throw new Error(
      `--agents takes whole numbers (e.g. 500,1000,2000), --seconds a positive number and --dials-per-turn a whole number (0: every dial when due)`,
    );
  if (values["llmgw-command"] !== undefined && !values["storm-only"])
    throw new Error(`--llmgw-command is for --storm-only runs, which write nothing to the docs`);
  if (values["storm-only"]) {
    log(`storm only; ${describeMachine()}`);
    for (const agents of sizes) {
      const storm = await stormOnly({
        agents,
        llmgwCommand: values["llmgw-command"],
        dialsPerTurn,
        nodeArgs: [
          ...(values["cpu-prof-dir"]
            ? ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof-dir"]}`]
            : []),
          ...(values["trace-gc"] ? ["--trace-gc"] : []),
        ],
        log,
      });
      if (storm.registeredInTheEnd < storm.agents) return 1;
    }
    log(`load average ${load()} at the end`);
    return 0;
  }
  const machine = values.machine ? `${values.machine}; ${describeMachine()}` : describeMachine();
  const problems: string[] = [];
  const shortfalls: string[] = [];
  const results: SizeResult[] = [];
  for (const agents of sizes) {
    const cpuProfDir = values["cpu-prof-dir"];
    const stand = await startStand(
      agents,
      cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [],
    );
    const sizeProblems: string[] = [];
    const sizeShortfalls: string[] = [];
    try {
      results.push(
        await measureSize(
          stand,
          { agents, seconds, dialsPerTurn, isSmoke: values.smoke },
          sizeProblems,
          sizeShortfalls,
        ),
      );
    } finally {
      problems.push(...sizeProblems.map((problem) => `${agents} agents: ${problem}`));
      shortfalls.push(...sizeShortfalls.map((shortfall) => `${agents} agents: ${shortfall}`));
      await stand.stop();
    }
  }
  const largest = must(results.at(-1), "a measured fleet size");
  console.log(`${sizesTable(results)}\n\n${barsTable(largest)}`);
  if (shortfalls.length > 0)
    console.error(`agents bench: bars not met:\n  ${shortfalls.join("\n  ")}`);
  if (problems.length > 0) {
    // Every visibility and storm problem; of the agents that never connected, a count and five.
    const isConnect = (problem: string) => problem.includes(" agents: connect: ");
    const connects = problems.filter(isConnect);
    const shown = [
      ...problems.filter((problem) => !isConnect(problem)),
      ...connects.slice(0, 5),
      ...(connects.length > 5 ? [`… ${connects.length} agents never connected in all`] : []),
    ];
    console.error(`agents bench: errors:\n  ${shown.join("\n  ")}`);
    return 1;
  }
  if (!values.smoke && !values["no-write"]) {
    const info = {
      command: COMMAND,
      date: new Date().toISOString().slice(0, 10),
      machine,
      loadAtEnd: load(),
      seconds,
      dialsPerTurn,
    };
    writeFileSync(
      DOCS,
      await withBenchSection("agents", readFileSync(DOCS, "utf8"), agentsSection(results, info)),
    );
    log(`wrote ${DOCS}`);
  }
  return 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error(`agents bench: ${error instanceof Error ? error.stack : String(error)}`);
    await cleanupAll();
    process.exitCode = 1;
  });
