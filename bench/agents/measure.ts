// The three P7 measurements over a fleet of SimAgents: CPU per heartbeat frame over a steady
// window, how soon a heartbeat's sample shows through the API, and a reconnect storm.
import { TRPCClientError, type TRPCClient } from "@trpc/client";
import { createBackoff, DEFAULT_BACKOFF } from "@llmgw/agent";
import type { AppRouter } from "@llmgw/api";
import { sampleAcceptQueue } from "./accept-queue";
import { dialPacer } from "./dial-pacer";
import { groupUsage, mainThreadSchedMs, processCpuMs } from "./proc";
import type { SimAgent, Target } from "./sim-agent";
import { StormTimeline, type DialPhase } from "./storm-timeline";
import { eachAtOnce } from "../each-at-once";

const CONNECTS_AT_ONCE = 64;
const POLL_INTERVAL_MS = 10;
const VISIBLE_TIMEOUT_MS = 10_000;
const STORM_DEADLINE_MS = 10_000;
/** After the storm's deadline, agents still out keep retrying this long, as a real agent would. */
const STORM_RETRY_MS = 30_000;
const RETRY_PAUSE_MS = 500;
/** A storm's dials begun per turn of the harness's event loop (dialPacer); 0: each when due. */
export const DIALS_PER_TURN = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Connects every agent, `atOnce` at a time, each first beating at a random point of the interval. */
export async function connectAll(
  agents: SimAgent[],
  target: Target,
  intervalMs: number,
  atOnce = CONNECTS_AT_ONCE,
): Promise<string[]> {
  const failures: string[] = [];
  await eachAtOnce(agents, atOnce, async (agent) => {
    try {
      await agent.connect(target, Math.random() * intervalMs);
    } catch (error) {
      failures.push(`${agent.nodeId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return failures;
}

/**
 * Connects every agent, `atOnce` at a time, each dialing again on its own when its dial fails (not
 * after the whole round), until `deadlineMs` has passed; answers the last failure of each still
 * out. With `agentBackoff` every dial waits first as apps/agent's reconnect does (full jitter,
 * 0–0.5 s after a session that worked, the ceiling doubling after each failure); without it a
 * failed dial waits 0.5 s.
 */
export async function connectWithRetries(
  agents: SimAgent[],
  target: Target,
  intervalMs: number,
  deadlineMs: number,
  options: {
    atOnce?: number;
    agentBackoff?: boolean;
    onFailedDial?(why: string): void;
    observe?(phase: DialPhase, afterTcp?: boolean): void;
    /** Resolves when the agent may dial (dialPacer); by default at once. */
    turn?(): Promise<void>;
  } = {},
): Promise<string[]> {
  const atOnce = options.atOnce ?? CONNECTS_AT_ONCE;
  const startMs = Date.now();
  const failures: string[] = [];
  await eachAtOnce(agents, atOnce, async (agent) => {
    const backoff = options.agentBackoff
      ? createBackoff({ ...DEFAULT_BACKOFF, random: Math.random })
      : undefined;
    for (;;) {
      if (backoff) await sleep(backoff.nextDelayMs());
      await options.turn?.();
      try {
        await agent.connect(target, Math.random() * intervalMs, options.observe);
        break;
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        options.onFailedDial?.(why);
        if (Date.now() - startMs >= deadlineMs) {
          failures.push(`${agent.nodeId}: ${why}`);
          break;
        }
        if (!backoff) await sleep(RETRY_PAUSE_MS);
      }
    }
  });
  return failures;
}

export interface Window {
  frames: number;
  cpuMs: number;
  seconds: number;
  cpuMsPerFrame: number;
  rssBytes: number;
}

/** CPU the process group `pgrp` spends while the fleet heartbeats for `seconds`. */
export async function steadyWindow(
  agents: SimAgent[],
  pgrp: number,
  seconds: number,
): Promise<Window> {
  const sent = () => agents.reduce((sum, agent) => sum + agent.heartbeatsSent, 0);
  const before = { usage: groupUsage(pgrp), frames: sent(), atMs: Date.now() };
  await sleep(seconds * 1000);
  const after = { usage: groupUsage(pgrp), frames: sent(), atMs: Date.now() };
  const frames = after.frames - before.frames;
  const cpuMs = after.usage.cpuMs - before.usage.cpuMs;
  return {
    frames,
    cpuMs,
    seconds: (after.atMs - before.atMs) / 1000,
    cpuMsPerFrame: frames > 0 ? cpuMs / frames : Number.NaN,
    rssBytes: after.usage.rssBytes,
  };
}

/** Answers whether nodes.get knows `nodeId` yet; any other failure is thrown. */
async function isKnown(api: TRPCClient<AppRouter>, nodeId: string): Promise<boolean> {
  try {
    await api.nodes.get.query({ id: nodeId });
    return true;
  } catch (error) {
    if (
      error instanceof TRPCClientError &&
      (error as TRPCClientError<AppRouter>).data?.code === "NOT_FOUND"
    )
      return false;
    throw error;
  }
}

/**
 * Waits until nodes.get knows each sampled agent (its registration is written in a batch after the
 * RegisterAck), then marks its next heartbeat and polls nodes.get until card 0 shows the mark: the
 * delay from the frame leaving the agent to the API answering with it. An agent that is not
 * registered, or that the API does not know in time, is a problem named, not a crash. `notes`
 * gets, for each delay, where it went (whereItWaited).
 */
export async function visibilityDelays(
  agents: SimAgent[],
  api: TRPCClient<AppRouter>,
  problems: string[],
  notes?: string[],
): Promise<number[]> {
  const delays: number[] = [];
  for (const [at, agent] of agents.entries()) {
    if (agent.registeredAtMs === undefined) {
      problems.push(`${agent.nodeId}: sampled for visibility but not registered`);
      continue;
    }
    const knownFromMs = Date.now();
    while (!(await isKnown(api, agent.nodeId))) {
      if (Date.now() - knownFromMs > VISIBLE_TIMEOUT_MS) break;
      await sleep(POLL_INTERVAL_MS);
    }
    if (Date.now() - knownFromMs > VISIBLE_TIMEOUT_MS) {
      problems.push(
        `${agent.nodeId}: registered ${((knownFromMs - agent.registeredAtMs) / 1000).toFixed(1)} s before, yet nodes.get did not know it within ${VISIBLE_TIMEOUT_MS} ms`,
      );
      continue;
    }
    const mark = 1_000_000_000n + BigInt(at) * 4096n;
    const sentAt = agent.markNext(mark);
    const startedMs = Date.now();
    let seen: Read | undefined;
    const reads: Read[] = [];
    while (seen === undefined && Date.now() - startedMs < VISIBLE_TIMEOUT_MS) {
      const read = { startMs: Date.now(), endMs: 0 };
      const node = await api.nodes.get.query({ id: agent.nodeId });
      read.endMs = Date.now();
      reads.push(read);
      if (node.gpus[0]?.memoryBytesUsed === Number(mark)) seen = read;
      else await sleep(POLL_INTERVAL_MS);
    }
    if (seen === undefined) {
      problems.push(`${agent.nodeId}: its marked heartbeat never showed in the API`);
      continue;
    }
    const sentMs = await sentAt;
    delays.push(Math.max(0, seen.endMs - sentMs));
    notes?.push(whereItWaited(seen.endMs - sentMs, sentMs, seen, reads));
  }
  return delays;
}

interface Read {
  startMs: number;
  endMs: number;
}

/**
 * Where one marked heartbeat's delay went: reads begun after it was sent that did not show it yet
 * (the frame not yet handled by the server), and how long the read that showed it took.
 */
function whereItWaited(delayMs: number, sentMs: number, seen: Read, reads: Read[]): string {
  const missed = reads.filter((read) => read.startMs >= sentMs && read !== seen);
  const lastMissed = missed.at(-1);
  return (
    `${delayMs} ms: ${missed.length} reads after sending did not show it` +
    (lastMissed ? ` (the last began ${lastMissed.startMs - sentMs} ms after sending)` : "") +
    `; the read that showed it began ${seen.startMs - sentMs} ms after sending and took ${seen.endMs - seen.startMs} ms`
  );
}

export interface Storm {
  agents: number;
  registeredInDeadline: number;
  registeredInTheEnd: number;
  lastRegisteredMs: number;
  readyInApi: number;
  /** Dials that failed during the storm (each agent dials again after its backoff). */
  failedDials: number;
  /** A few of their reasons, node id left out, with how often each was seen. */
  failureReasons: string[];
  /** The storm second by second, the harness's and the server's view (StormTimeline). */
  timeline: string[];
}

/**
 * Cuts every socket at once, then every agent dials back as apps/agent does (its jittered
 * reconnect delay, then its backoff after a failed dial); counts who is registered when.
 */
export async function reconnectStorm(
  agents: SimAgent[],
  target: Target,
  intervalMs: number,
  api: TRPCClient<AppRouter>,
  options: {
    /** The server's log so far, for its storm-second lines. */
    serverOutput?(): string;
    /** Dials started per turn of the harness's event loop (dialPacer); 0 starts each when due. */
    dialsPerTurn?: number;
    /** The server's pid, for its CPU (and its thread's wait for a core) second by second. */
    serverPid?: number;
  } = {},
): Promise<Storm> {
  for (const agent of agents) agent.drop();
  const startMs = Date.now();
  const timeline = new StormTimeline(startMs);
  const stopSampling = sampleAcceptQueue(Number(new URL(target.url).port), (sample) =>
    timeline.noteAcceptQueue(sample.queued),
  );
  const { serverPid } = options;
  const cpuNow = () => {
    const harness = process.cpuUsage();
    return {
      serverCpuMs: serverPid === undefined ? undefined : processCpuMs(serverPid),
      serverWaitMs: serverPid === undefined ? undefined : mainThreadSchedMs(serverPid)?.waitMs,
      harnessCpuMs: (harness.user + harness.system) / 1000,
    };
  };
  let cpuBefore = cpuNow();
  const since = (now?: number, before?: number) =>
    now === undefined || before === undefined ? undefined : now - before;
  const cpuTimer = setInterval(() => {
    const now = cpuNow();
    timeline.noteCpu({
      serverCpuMs: since(now.serverCpuMs, cpuBefore.serverCpuMs),
      serverWaitMs: since(now.serverWaitMs, cpuBefore.serverWaitMs),
      harnessCpuMs: now.harnessCpuMs - cpuBefore.harnessCpuMs,
    });
    cpuBefore = now;
  }, 250);
  const reasons = new Map<string, number>();
  let failedDials = 0;
  await connectWithRetries(agents, target, intervalMs, STORM_DEADLINE_MS + STORM_RETRY_MS, {
    atOnce: agents.length,
    agentBackoff: true,
    onFailedDial: (why) => {
      failedDials += 1;
      const reason = why.replace(/^sim-\d+: /, "");
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    },
    observe: (phase, afterTcp) => timeline.note(phase, afterTcp),
    turn: dialPacer(options.dialsPerTurn ?? DIALS_PER_TURN),
  });
  stopSampling();
  clearInterval(cpuTimer);
  timeline.stop();
  const times = agents.flatMap((agent) =>
    agent.registeredAtMs === undefined ? [] : [agent.registeredAtMs - startMs],
  );
  // Heartbeats must flow again before the API calls a node ready; give them one interval.
  await sleep(intervalMs * 1.5);
  const nodes = await api.nodes.list.query();
  return {
    agents: agents.length,
    registeredInDeadline: times.filter((ms) => ms <= STORM_DEADLINE_MS).length,
    registeredInTheEnd: times.length,
    lastRegisteredMs: Math.max(0, ...times),
    readyInApi: nodes.filter((node) => node.state === "ready").length,
    failedDials,
    failureReasons: [...reasons]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([reason, count]) => `${count} × ${reason}`),
    timeline: timeline.lines(options.serverOutput?.()),
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/**
 * Where the registered agents' last dials spent their time: dial to open (TCP, TLS, the upgrade,
 * and each of these apart) and open to RegisterAck, p50 / p90 / max in ms, and how many TLS
 * sessions were resumed.
 */
export function dialSummary(agents: readonly SimAgent[]): string {
  const dials = agents.flatMap((agent) => (agent.lastDial ? [agent.lastDial] : []));
  const spread = (values: number[]) => {
    const sorted = values.sort((a, b) => a - b);
    return [50, 90, 100].map((p) => percentile(sorted, p).toFixed(0)).join(" / ");
  };
  const resumed = dials.filter((dial) => dial.isResumed).length;
  return (
    `dial to open ${spread(dials.map((dial) => dial.openMs))} ms (of it dial to TCP connected ` +
    `${spread(dials.map((dial) => dial.tcpMs))}, TCP connected to TLS secured ` +
    `${spread(dials.map((dial) => dial.tlsMs - dial.tcpMs))}, TLS secured to open ` +
    `${spread(dials.map((dial) => dial.openMs - dial.tlsMs))}), open to RegisterAck ` +
    `${spread(dials.map((dial) => dial.ackMs))} ms (p50 / p90 / max), ${resumed} of ${dials.length} TLS sessions resumed`
  );
}
