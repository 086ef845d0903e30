// `--storm-only`: connects the fleet and cuts it once, nothing else (no bare server, no CPU windows,
// no visibility), against this checkout's server or another checkout's `llmgw` (`--llmgw-command`).
// Two versions of the agent port are compared that way under the same harness and the same
// machine minutes: issue 19's 2,000-agent storm went from 7 s to 91 s between two sessions, and
// only an A/B run of the two servers says whether the code or the machine made the difference.
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { HEARTBEAT_INTERVAL_MS, adminApi, joinNodes, startLlmgw } from "./fleet";
import { connectWithRetries, dialSummary, reconnectStorm, type Storm } from "./measure";
import { overflowsSince } from "./proc";
import { SimAgent, type Target } from "./sim-agent";

/** Where the storm's registrations fell: how many were back by each of these seconds. */
const MARKS_S = [2, 5, 10, 20, 40];
const CONNECT_RETRY_MS = 30_000;
const HEALTH_POLL_MS = 100;

/**
 * Asks the server's /healthz one request after another until stopped: the slowest answers say how
 * long its thread was held (the bench's own event loop delay, reported beside, says how much of it
 * was the harness instead).
 */
function pollHealth(apiUrl: string): () => Promise<string> {
  const answersMs: number[] = [];
  let isStopped = false;
  const polling = (async () => {
    while (!isStopped) {
      const startMs = performance.now();
      await fetch(`${apiUrl}/healthz`).then((answer) => answer.arrayBuffer());
      answersMs.push(performance.now() - startMs);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
    }
  })();
  return async () => {
    isStopped = true;
    await polling;
    const sorted = answersMs.sort((a, b) => a - b);
    const at = (q: number) =>
      (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(0);
    return `/healthz answered ${sorted.length} times, ${at(0.5)} / ${at(0.9)} / ${at(1)} ms (p50 / p90 / max)`;
  };
}

export interface StormOnlyOptions {
  agents: number;
  /** Another checkout's `packages/cli/bin/llmgw.mjs`, run as `COMMAND server`. */
  llmgwCommand?: string;
  /** Dials begun per turn of the harness's event loop (dialPacer). */
  dialsPerTurn: number;
  /** Node flags for this checkout's server (`--cpu-prof`, `--trace-gc`); none with llmgwCommand. */
  nodeArgs?: string[];
  log(line: string): void;
}

/** Joins and connects `agents` nodes, cuts them all, and answers the storm; problems are logged. */
export async function stormOnly(options: StormOnlyOptions): Promise<Storm> {
  const { agents: count, log } = options;
  const { server, serverLog } = await startLlmgw(
    count,
    options.nodeArgs ?? [],
    options.llmgwCommand ? { command: options.llmgwCommand } : {},
  );
  try {
    const api = await adminApi(server.apiUrl);
    const names = Array.from({ length: count }, (_, at) => `sim-${String(at).padStart(5, "0")}`);
    log(
      `${count} agents: joining ${options.llmgwCommand ?? "this checkout's server"}; its output goes to ${serverLog}`,
    );
    const nodes = await joinNodes(server, names);
    const agents = nodes.map(
      (node, at) => new SimAgent(node.nodeId, node.tls, HEARTBEAT_INTERVAL_MS, at + 1),
    );
    const target: Target = { url: server.agentUrl, isAcked: true };
    const connectStartMs = Date.now();
    const failures = await connectWithRetries(
      agents,
      target,
      HEARTBEAT_INTERVAL_MS,
      CONNECT_RETRY_MS,
    );
    log(
      `${count} agents: connected in ${((Date.now() - connectStartMs) / 1000).toFixed(1)} s (${failures.length} never); ${dialSummary(agents)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_INTERVAL_MS * 2));
    const overflows = overflowsSince();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const health = pollHealth(server.apiUrl);
    const stormStartMs = Date.now();
    const storm = await reconnectStorm(agents, target, HEARTBEAT_INTERVAL_MS, api, {
      serverOutput: () => readFileSync(serverLog, "utf8"),
      dialsPerTurn: options.dialsPerTurn,
      serverPid: server.process.pid,
    });
    loop.disable();
    const healthSummary = await health();
    const backBy = MARKS_S.map((markS) => {
      const back = agents.filter(
        (agent) =>
          agent.registeredAtMs !== undefined && agent.registeredAtMs - stormStartMs <= markS * 1000,
      ).length;
      return `${back} by ${markS} s`;
    });
    log(
      `${count} agents: storm: ${storm.registeredInDeadline} registered within 10 s, the last after ${(storm.lastRegisteredMs / 1000).toFixed(1)} s (${backBy.join(", ")}); ${storm.readyInApi} ready in the API; ${storm.failedDials} dials failed${storm.failureReasons.length > 0 ? ` (${storm.failureReasons.join("; ")})` : ""}; listen queue overflows ${overflows()}`,
    );
    log(
      `${count} agents: storm: ${dialSummary(agents)}; ${healthSummary}; bench event loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} / max ${(loop.max / 1e6).toFixed(0)} ms`,
    );
    log(`${count} agents: storm second by second:\n  ${storm.timeline.join("\n  ")}`);
    for (const agent of agents) agent.drop();
    return storm;
  } finally {
    await server.process.stop();
  }
}
