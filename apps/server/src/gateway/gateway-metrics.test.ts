import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { NewUsageRecord } from "@llmgw/db";
import type { AdmissionQueues } from "./admission";
import type { EndpointPool } from "./endpoints";
import { registerGatewayMetrics } from "./gateway-metrics";

const pool = { all: () => [] } as unknown as EndpointPool;
const queues = { depths: () => [], refusals: () => [] } as unknown as AdmissionQueues;

function row(model: string, status: number, latencyMs: number): NewUsageRecord {
  return {
    ...{ keyId: "k1", owner: "team:ml", model, endpoint: "/v1/chat/completions" },
    ...{ replicaId: "r1", requestId: "q", promptTokens: 3, completionTokens: 5 },
    ...{ latencyMs, ttftMs: latencyMs / 2, status, errorCode: null, at: new Date(0) },
  };
}

const value = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);

describe("gateway metrics", () => {
  it("counts each model's requests, tokens and times in their own series, labelled series kept between calls", async () => {
    const registry = new Registry();
    const metrics = registerGatewayMetrics(registry, pool, queues, () => 0);
    for (let i = 0; i < 3; i += 1) metrics.observe(row("a", 200, 20));
    metrics.observe(row("a", 429, 1));
    metrics.observe(row("b", 200, 700));
    metrics.attempt("a", "r1");
    metrics.attempt("a", "r1");
    metrics.attempt("a", "r2");
    const text = await registry.metrics();
    const name = "llmgw_gateway_";
    expect(value(text, `${name}requests_total{model="a",status="200"}`)).toBe(3);
    expect(value(text, `${name}requests_total{model="a",status="429"}`)).toBe(1);
    expect(value(text, `${name}requests_total{model="b",status="200"}`)).toBe(1);
    expect(value(text, `${name}tokens_total{model="a",kind="prompt"}`)).toBe(12);
    expect(value(text, `${name}tokens_total{model="b",kind="completion"}`)).toBe(5);
    expect(value(text, `${name}upstream_attempts_total{model="a",replica="r1"}`)).toBe(2);
    expect(value(text, `${name}upstream_attempts_total{model="a",replica="r2"}`)).toBe(1);
    expect(value(text, `${name}request_duration_seconds_count{model="a"}`)).toBe(4);
    expect(value(text, `${name}request_duration_seconds_bucket{le="0.025",model="a"}`)).toBe(4);
    expect(value(text, `${name}request_duration_seconds_bucket{le="0.5",model="b"}`)).toBe(0);
    expect(value(text, `${name}time_to_first_byte_seconds_sum{model="b"}`)).toBeCloseTo(0.35);
  });
});
