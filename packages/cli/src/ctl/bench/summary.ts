// What one concurrency step of `ctl bench` measured, summed up the way the engines' own serving
// benchmarks report it (vLLM's benchmark_serving, SGLang's bench_serving): throughput in requests
// and output tokens a second, time to first token, time per output token and end-to-end latency
// as percentiles over the requests that succeeded.
import { quantile } from "d3-array";
import { renderTable, truncate } from "../table";

/** One request as the load saw it. Times in ms from the request's own start. */
export interface RequestSample {
  ok: boolean;
  /** Why it failed, in the client's words (status and message); absent when it succeeded. */
  error?: string;
  /** First token of content; null when no content came (an error, or an empty answer). */
  ttftMs: number | null;
  latencyMs: number;
  promptTokens: number;
  outputTokens: number;
}

interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
}

export interface StepSummary {
  concurrency: number;
  requests: number;
  failed: number;
  /** The first few distinct failure reasons, so a run of errors says what went wrong. */
  errors: string[];
  seconds: number;
  requestsPerSecond: number;
  outputTokensPerSecond: number;
  meanPromptTokens: number;
  meanOutputTokens: number;
  ttftMs: Percentiles | null;
  /** Time per output token after the first: (latency − TTFT) / (tokens − 1). */
  tpotMs: Percentiles | null;
  latencyMs: Percentiles | null;
}

const ERRORS_SHOWN = 3;

function percentiles(values: number[]): Percentiles | null {
  if (values.length === 0) return null;
  const at = (p: number) => quantile(values, p) ?? Number.NaN;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

export function summarizeStep(
  concurrency: number,
  samples: readonly RequestSample[],
  wallMs: number,
): StepSummary {
  const ok = samples.filter((s) => s.ok);
  const seconds = wallMs / 1_000;
  const outputTokens = ok.reduce((sum, s) => sum + s.outputTokens, 0);
  const timed = ok.filter((s) => s.ttftMs !== null);
  return {
    concurrency,
    requests: samples.length,
    failed: samples.length - ok.length,
    errors: [...new Set(samples.flatMap((s) => (s.error ? [s.error] : [])))].slice(0, ERRORS_SHOWN),
    seconds,
    requestsPerSecond: seconds > 0 ? ok.length / seconds : 0,
    outputTokensPerSecond: seconds > 0 ? outputTokens / seconds : 0,
    meanPromptTokens: mean(ok.map((s) => s.promptTokens)),
    meanOutputTokens: mean(ok.map((s) => s.outputTokens)),
    ttftMs: percentiles(timed.map((s) => s.ttftMs ?? 0)),
    tpotMs: percentiles(
      timed
        .filter((s) => s.outputTokens > 1)
        .map((s) => (s.latencyMs - (s.ttftMs ?? 0)) / (s.outputTokens - 1)),
    ),
    latencyMs: percentiles(ok.map((s) => s.latencyMs)),
  };
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const trio = (p: Percentiles | null) => (p ? `${ms(p.p50)} / ${ms(p.p90)} / ${ms(p.p99)}` : "—");

/** The table `ctl bench` prints: one row per concurrency step, then any failure reasons. */
export function stepsTable(steps: readonly StepSummary[]): string {
  const header = [
    "CONC",
    "OK/SENT",
    "REQ/S",
    "OUT TOK/S",
    "TTFT ms p50/p90/p99",
    "TPOT ms p50/p90/p99",
    "LATENCY ms p50/p90/p99",
  ];
  const rows = steps.map((s) => [
    String(s.concurrency),
    `${s.requests - s.failed}/${s.requests}`,
    s.requestsPerSecond.toFixed(2),
    s.outputTokensPerSecond.toFixed(1),
    trio(s.ttftMs),
    trio(s.tpotMs),
    trio(s.latencyMs),
  ]);
  const failures = steps.flatMap((s) =>
    s.errors.map(
      (e) => `concurrency ${s.concurrency}: ${s.failed} failed, such as: ${truncate(e, 160)}`,
    ),
  );
  return renderTable(header, rows) + failures.map((f) => `${f}\n`).join("");
}
