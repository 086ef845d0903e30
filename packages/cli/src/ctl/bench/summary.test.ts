// The step summary `ctl bench` prints: percentiles over the requests that succeeded, time per
// output token after the first, throughput over the step's wall time, and the failure reasons.
import { describe, expect, it } from "vitest";
import { stepsTable, summarizeStep, type RequestSample } from "./summary";

const ok = (ttftMs: number, latencyMs: number, outputTokens: number): RequestSample => ({
  ...{ ok: true, ttftMs, latencyMs, promptTokens: 40, outputTokens },
});
const failed = (error: string): RequestSample => ({
  ...{ ok: false, error, ttftMs: null, latencyMs: 5, promptTokens: 0, outputTokens: 0 },
});

describe("summarizeStep", () => {
  it("reports throughput over the wall time and percentiles over the successes", () => {
    const samples = [ok(10, 110, 11), ok(20, 220, 11), ok(30, 330, 11), failed("503 busy")];
    const step = summarizeStep(4, samples, 2_000);
    expect(step).toMatchObject({ concurrency: 4, requests: 4, failed: 1, errors: ["503 busy"] });
    expect(step.requestsPerSecond).toBe(1.5);
    expect(step.outputTokensPerSecond).toBe(16.5);
    expect(step.meanOutputTokens).toBe(11);
    expect(step.ttftMs).toEqual({ p50: 20, p90: 28, p99: 29.8 });
    // (110 − 10) / 10 = 10 ms a token; (220 − 20) / 10 = 20; (330 − 30) / 10 = 30.
    expect(step.tpotMs?.p50).toBe(20);
    expect(step.latencyMs?.p50).toBe(220);
  });

  it("has no percentiles when nothing succeeded, and keeps three distinct reasons", () => {
    const samples = ["a", "b", "a", "c", "d"].map(failed);
    const step = summarizeStep(1, samples, 1_000);
    expect(step).toMatchObject({ failed: 5, errors: ["a", "b", "c"], requestsPerSecond: 0 });
    expect(step.ttftMs).toBeNull();
    expect(step.latencyMs).toBeNull();
  });

  it("leaves one-token answers out of the time per output token", () => {
    const step = summarizeStep(1, [ok(50, 50, 1), ok(10, 40, 4)], 1_000);
    expect(step.tpotMs).toEqual({ p50: 10, p90: 10, p99: 10 });
  });
});

describe("stepsTable", () => {
  it("prints a row per step under aligned headings, then what failed", () => {
    const text = stepsTable([
      summarizeStep(1, [ok(12.5, 300, 8)], 300),
      summarizeStep(16, [ok(40, 900, 8), failed("429 slow down")], 1_000),
    ]);
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^CONC\s+OK\/SENT\s+REQ\/S\s+OUT TOK\/S\s+TTFT ms p50\/p90\/p99/);
    expect(lines[1]).toMatch(/^1\s+1\/1\s+3\.33\s+26\.7\s+12\.5 \/ 12\.5 \/ 12\.5\s/);
    expect(lines[2]).toMatch(/^16\s+1\/2\s/);
    expect(lines[2]?.indexOf("1/2")).toBe(lines[0]?.indexOf("OK/SENT"));
    expect(lines[3]).toBe("concurrency 16: 1 failed, such as: 429 slow down");
  });
});
