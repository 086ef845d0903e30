// How each figure is taken. One at a time (P1 latency, P4 time to first token): the targets take
// turns request by request over one kept-alive connection each, timed with the high-resolution
// clock, so a busy moment on the machine lands on all of them alike. Under load (P2–P5):
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

/** `count` requests per target (after `warmup` unrecorded ones), the targets taking turns. */
export async function oneAtATime(
  targets: readonly Target[],
  body: string,
  options: { count: number; warmup: number; stream: boolean },
  problems: string[],
): Promise<Map<string, OneAtATime>> {
  const pools = targets.map((target) => new Pool(target.origin, { connections: 1 }));
  const results = new Map<string, OneAtATime>(
    targets.map((t) => [t.name, { latencyMs: [], firstByteMs: [], eventCounts: new Set() }]),
  );
  const scratch = (): OneAtATime => ({ latencyMs: [], firstByteMs: [], eventCounts: new Set() });
  try {
    for (let round = 0; round < options.warmup + options.count; round += 1) {
      for (const [at, target] of targets.entries()) {
        const into = round < options.warmup ? scratch() : results.get(target.name);
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
