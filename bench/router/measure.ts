// How each figure is taken. One at a time (P1 latency, P4 time to first token): each gateway takes
// turns with direct request by request over one kept-alive connection each, in blocks that the
// gateways take in turn (inPairs), timed with the high-resolution clock, so a busy moment on the
// machine lands on all of them alike. Under load (P2–P5):
// autocannon against each target in turn, round after round; the medians of the rounds are kept.
import autocannon from "autocannon";
import { Pool } from "undici";

export interface Target {
  /** Short name used in tables: direct, llmgw, bare proxy, Portkey. */
  name: string;
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** The process a run's CPU time is read from: the gateway itself, or the engine for direct. */
  pid?: number;
}

export const chatBody = (model: string, stream: boolean) =>
  JSON.stringify({
    model,
    messages: [{ role: "user", content: "Say hello to the benchmark" }],
    max_tokens: 16,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });

export interface OneAtATime {
  /** Milliseconds, one per request. */
  latencyMs: number[];
  /** Streams only: milliseconds to the first byte of the body. */
  firstByteMs: number[];
  /** Streams only: SSE events (`data:` lines) seen per stream, distinct values. */
  eventCounts: Set<number>;
}

const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
export const p50 = (values: readonly number[]) => quantile(values, 0.5);
export const p99 = (values: readonly number[]) => quantile(values, 0.99);
export const median = p50;

const sinceMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function once(
  pool: Pool,
  target: Target,
  body: string,
  stream: boolean,
  into: OneAtATime,
  problems: string[],
): Promise<void> {
  const start = process.hrtime.bigint();
  const answer = await pool.request({
    path: target.path,
    method: "POST",
    headers: { ...target.headers, "content-type": "application/json" },
    body,
  });
  let firstByteMs: number | null = null;
  let text = "";
  for await (const part of answer.body) {
    firstByteMs ??= sinceMs(start);
    text += (part as Buffer).toString("utf8");
  }
  const latencyMs = sinceMs(start);
  if (answer.statusCode !== 200) {
    problems.push(`${target.name}: status ${answer.statusCode}: ${text.slice(0, 300)}`);
    return;
  }
  into.latencyMs.push(latencyMs);
  if (stream) {
    into.firstByteMs.push(firstByteMs ?? latencyMs);
    into.eventCounts.add(text.split("\n").filter((line) => line.startsWith("data:")).length);
    if (!text.includes("data: [DONE]"))
      problems.push(`${target.name}: a stream ended without [DONE]`);
  } else if (!text.includes('"chat.completion"'))
    problems.push(`${target.name}: not a chat completion: ${text.slice(0, 300)}`);
}

const noneYet = (): OneAtATime => ({ latencyMs: [], firstByteMs: [], eventCounts: new Set() });

/** `count` requests per target (after `warmup` unrecorded ones), the targets taking turns. */
export async function oneAtATime(
  targets: readonly Target[],
  body: string,
  options: { count: number; warmup: number; stream: boolean },
  problems: string[],
): Promise<Map<string, OneAtATime>> {
  const pools = targets.map((target) => new Pool(target.origin, { connections: 1 }));
  const results = new Map<string, OneAtATime>(targets.map((t) => [t.name, noneYet()]));
  try {
    for (let round = 0; round < options.warmup + options.count; round += 1) {
      for (const [at, target] of targets.entries()) {
        const into = round < options.warmup ? noneYet() : results.get(target.name);
        const pool = pools[at];
        if (into && pool) await once(pool, target, body, options.stream, into, problems);
      }
      if (problems.length > 20) break;
    }
  } finally {
    await Promise.all(pools.map((pool) => pool.close()));
  }
  return results;
}

/** One gateway's requests and, taken in turn with them, direct's. */
export interface Paired {
  own: OneAtATime;
  direct: OneAtATime;
}

/**
 * P1 and P4's one at a time: each gateway takes turns with direct alone, request by request, in
 * blocks of `block` pairs; the gateways' blocks follow each other round after round (each round
 * starting one gateway further on) until each has `count` pairs, so a busy moment of the machine
 * spreads over all of them. The first `blockWarmup` pairs of a block are not recorded: the
 * gateway's first requests after the other gateways' block, whose work its core just ran. Before
 * the first round every gateway makes `warmup` unrecorded pairs. `targets` is direct first, then
 * the gateways; answers each gateway's pairs by name, and all of direct's requests under "direct"
 * (its `direct` the same).
 */
export async function inPairs(
  targets: readonly Target[],
  body: string,
  options: { count: number; warmup: number; stream: boolean; block: number; blockWarmup: number },
  problems: string[],
): Promise<Map<string, Paired>> {
  const [direct, ...gateways] = targets;
  if (!direct) return new Map();
  const pools = new Map(targets.map((t) => [t, new Pool(t.origin, { connections: 1 })]));
  const results = new Map<string, Paired>(
    gateways.map((t) => [t.name, { own: noneYet(), direct: noneYet() }]),
  );
  const allDirect = noneYet();
  const pair = async (gateway: Target, recorded: boolean) => {
    const into = recorded ? results.get(gateway.name) : undefined;
    const directPool = pools.get(direct);
    const gatewayPool = pools.get(gateway);
    if (!directPool || !gatewayPool) return;
    const directInto = into?.direct ?? noneYet();
    await once(directPool, direct, body, options.stream, directInto, problems);
    await once(gatewayPool, gateway, body, options.stream, into?.own ?? noneYet(), problems);
  };
  try {
    for (const gateway of gateways)
      for (let at = 0; at < options.warmup; at += 1) await pair(gateway, false);
    for (let done = 0, round = 0; done < options.count && problems.length <= 20; round += 1) {
      const recorded = Math.min(options.block, options.count - done);
      // Each round starts one gateway further on, so no gateway always follows the same one.
      const from = round % gateways.length;
      for (const gateway of [...gateways.slice(from), ...gateways.slice(0, from)]) {
        for (let at = 0; at < options.blockWarmup; at += 1) await pair(gateway, false);
        for (let at = 0; at < recorded; at += 1) await pair(gateway, true);
      }
      done += recorded;
    }
  } finally {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  }
  for (const { direct: taken } of results.values()) {
    allDirect.latencyMs.push(...taken.latencyMs);
    allDirect.firstByteMs.push(...taken.firstByteMs);
    for (const count of taken.eventCounts) allDirect.eventCounts.add(count);
  }
  return new Map([[direct.name, { own: allDirect, direct: allDirect }], ...results]);
}

export interface Load {
  rps: number;
  /** How long the run took, its first request to the tick after its end. */
  elapsedMs: number;
  /** Answers read to the end: the only ones counted in rps, latency and errors. */
  answers: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts (no answer within `timeout`), as autocannon counts them. */
  errors: number;
  /** Of the errors, requests with no answer within autocannon's `timeout` (10 s). */
  timeouts: number;
  non2xx: number;
  /** Status → count, for the answers that were not 2xx. */
  refusals: Record<string, number>;
  /** CPU the target's process spent per answer over the run and its settling pause; null: unread. */
  cpuUsPerAnswer: number | null;
  /** The target's main thread over the same time (timed-run.ts); null: unread. */
  mainThread: ThreadShares | null;
  /**
   * CPU the client's side spent per answer over the same time: the benchmark's process (the load
   * generator's worker in it) and the scenario's engine; null: unread.
   */
  clientCpuUsPerAnswer: number | null;
}

/** Shares of a run's wall time a thread ran on a CPU, waited for one, and slept (sum 1). */
export interface ThreadShares {
  running: number;
  waiting: number;
  idle: number;
}

/**
 * autocannon's clock ticks every `sampleInt`: a run is stopped (and stamped) at the first tick
 * after its time. At its default of one second, a short run measured whole seconds; at 100 ms, a
 * 10 s run is timed to within 1 %.
 */
const SAMPLE_INTERVAL_MS = 100;

/**
 * autocannon against one target: requests per second and latency under `connections` at once. A
 * measured run lasts a set time (`durationS`), whatever the target's pace, so it cannot end early
 * and needs no sizing. At its end autocannon closes every connection, cutting the request each one
 * still has in flight (at most `connections`): those are not counted anywhere, neither as answers,
 * nor in latency, nor as errors, so rps is answers read to the end over the run's time. The target
 * sees them as clients gone away (llmgw records a 499) after the run's time; the caller pauses
 * before the next run so that aftermath lands in no one's figures. The smoke runs a fixed number of
 * requests instead (`amount`), every one read to the end. The load is generated in a worker
 * thread, apart from the benchmark's own event loop.
 */
export async function load(
  target: Target,
  body: string,
  options: { connections: number } & ({ amount: number } | { durationS: number }),
): Promise<Load> {
  const result = await autocannon({
    url: `${target.origin}${target.path}`,
    method: "POST",
    headers: { ...target.headers, "content-type": "application/json" },
    body,
    connections: options.connections,
    ...("amount" in options ? { amount: options.amount } : { duration: options.durationS }),
    workers: 1,
    sampleInt: SAMPLE_INTERVAL_MS,
    timeout: 10,
  });
  const elapsedMs = new Date(result.finish).getTime() - new Date(result.start).getTime();
  return {
    rps: (result.requests.total * 1000) / Math.max(1, elapsedMs),
    elapsedMs,
    answers: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    refusals: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {})
        .filter(([status]) => !status.startsWith("2"))
        .map(([status, stats]) => [status, stats.count ?? 0]),
    ),
    cpuUsPerAnswer: null,
    mainThread: null,
    clientCpuUsPerAnswer: null,
  };
}
