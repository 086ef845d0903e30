import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LLAMACPP_METRIC_NAMES } from "./adapters/llamacpp";
import { SGLANG_METRIC_NAMES } from "./adapters/sglang";
import { VLLM_METRIC_NAMES } from "./adapters/vllm";
import { parseEngineMetrics, parsePrometheusText, resolveMetricNames } from "./metrics";

const fixture = (name: string): string =>
  readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), "utf8");

describe("parseEngineMetrics", () => {
  it("reads vLLM's V1 names", () => {
    expect(parseEngineMetrics(fixture("vllm-metrics.txt"), VLLM_METRIC_NAMES)).toEqual({
      runningRequests: 3,
      waitingRequests: 2,
      kvCacheUsageRatio: 0.4235,
    });
  });

  it("falls back to vLLM's older cache gauge, with braces and spaces inside a label value", () => {
    expect(parseEngineMetrics(fixture("vllm-legacy-metrics.txt"), VLLM_METRIC_NAMES)).toEqual({
      runningRequests: 1,
      waitingRequests: 0,
      kvCacheUsageRatio: 0.125,
    });
  });

  it("reads llama.cpp's names, which vLLM's would miss", () => {
    const text = fixture("llamacpp-metrics.txt");
    expect(parseEngineMetrics(text, LLAMACPP_METRIC_NAMES)).toEqual({
      runningRequests: 1,
      waitingRequests: 4,
      kvCacheUsageRatio: 0.0771,
    });
    expect(parseEngineMetrics(text, VLLM_METRIC_NAMES)).toEqual({});
  });

  it("sums SGLang's counts over ranks and keeps the fullest cache", () => {
    expect(parseEngineMetrics(fixture("sglang-metrics.txt"), SGLANG_METRIC_NAMES)).toEqual({
      runningRequests: 5,
      waitingRequests: 7,
      kvCacheUsageRatio: 0.61,
    });
  });

  it("leaves what is absent absent, and skips NaN and malformed lines", () => {
    const text = "vllm:num_requests_running NaN\nvllm:num_requests_waiting{broken 3\ngarbage\n";
    const load = parseEngineMetrics(text, VLLM_METRIC_NAMES);
    expect(load).toEqual({});
    expect("runningRequests" in load).toBe(false);
  });

  it("reads values with timestamps and exponents", () => {
    const samples = parsePrometheusText('a_total 1.5e3 1712345678000\nb{x="\\"}"} +Inf\n');
    expect(samples.get("a_total")).toEqual([1500]);
    expect(samples.get("b")).toEqual([Infinity]);
  });
});

describe("resolveMetricNames", () => {
  it("defaults when nothing is given, and fills blanks when running is not named", () => {
    expect(resolveMetricNames(VLLM_METRIC_NAMES, undefined)).toBe(VLLM_METRIC_NAMES);
    expect(resolveMetricNames(VLLM_METRIC_NAMES, { waitingRequests: "q" })).toEqual({
      ...VLLM_METRIC_NAMES,
      waitingRequests: ["q"],
    });
  });

  it("takes an override naming its running metric as complete", () => {
    expect(
      resolveMetricNames(VLLM_METRIC_NAMES, {
        runningRequests: "my:running",
        kvCacheUsageRatio: " ",
      }),
    ).toEqual({
      runningRequests: ["my:running"],
      waitingRequests: [],
      kvCacheUsageRatio: [],
    });
  });
});
