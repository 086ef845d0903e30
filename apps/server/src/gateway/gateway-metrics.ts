// Prometheus series for /v1: requests, tokens, latency and time to first byte per model, and each
// endpoint's breaker and in-flight count, read from live state when scraped.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { NewUsageRecord } from "@llmgw/db";
import type { AdmissionQueues } from "./admission";
import type { EndpointPool } from "./endpoints";

export interface GatewayMetrics {
  observe(row: NewUsageRecord): void;
  /** One request sent to one endpoint: a retry counts again, so attempts can be held against requests. */
  attempt(model: string, replicaId: string): void;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function registerGatewayMetrics(
  registry: Registry,
  pool: EndpointPool,
  queues: AdmissionQueues,
  nowMs: () => number,
): GatewayMetrics {
  const registers = [registry];
  const requests = new Counter({
    name: "llmgw_gateway_requests_total",
    help: "/v1 requests by model and answer status.",
    labelNames: ["model", "status"],
    registers,
  });
  const tokens = new Counter({
    name: "llmgw_gateway_tokens_total",
    help: "Tokens the engines reported, by model and kind.",
    labelNames: ["model", "kind"],
    registers,
  });
  const attempts = new Counter({
    name: "llmgw_gateway_upstream_attempts_total",
    help: "Requests sent to engines, retries included, by model and replica.",
    labelNames: ["model", "replica"],
    registers,
  });
  const latency = new Histogram({
    name: "llmgw_gateway_request_duration_seconds",
    help: "Time from admission to the end of the answer.",
    labelNames: ["model"],
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const ttft = new Histogram({
    name: "llmgw_gateway_time_to_first_byte_seconds",
    help: "Time from admission to the first byte from the engine.",
    labelNames: ["model"],
    buckets: SECONDS_BUCKETS,
    registers,
  });
  new Gauge({
    name: "llmgw_gateway_endpoint_breaker_open",
    help: "1 when the endpoint's breaker refuses requests (open), 0.5 half-open, 0 closed.",
    labelNames: ["model", "replica"],
    registers,
    collect() {
      this.reset();
      const now = nowMs();
      for (const e of pool.all()) {
        const state = e.breaker.stateAt(now);
        this.set(
          { model: e.model, replica: e.id },
          state === "open" ? 1 : state === "half-open" ? 0.5 : 0,
        );
      }
    },
  });
  new Gauge({
    name: "llmgw_gateway_endpoint_in_flight",
    help: "Requests in flight to each endpoint.",
    labelNames: ["model", "replica"],
    registers,
    collect() {
      this.reset();
      for (const e of pool.all()) this.set({ model: e.model, replica: e.id }, e.inFlight);
    },
  });
  new Gauge({
    name: "llmgw_gateway_endpoint_engine_waiting",
    help: "Requests the engine reports waiting in its own queue (scraped); absent while unknown.",
    labelNames: ["model", "replica"],
    registers,
    collect() {
      this.reset();
      for (const e of pool.all())
        if (e.waiting !== null) this.set({ model: e.model, replica: e.id }, e.waiting);
    },
  });
  new Gauge({
    name: "llmgw_gateway_queue_depth",
    help: "Requests waiting in the gateway's admission queue, by model.",
    labelNames: ["model"],
    registers,
    collect() {
      this.reset();
      for (const q of queues.depths()) this.set({ model: q.model }, q.waiting);
    },
  });
  new Counter({
    name: "llmgw_gateway_queue_refusals_total",
    help: "Requests refused with 429 by a model's admission queue, by reason: model_queue_full (the queue was full) or model_queue_timeout (no endpoint freed in time).",
    labelNames: ["model", "reason"],
    registers,
    collect() {
      this.reset();
      for (const r of queues.refusals()) this.inc({ model: r.model, reason: r.reason }, r.count);
    },
  });
  return {
    attempt(model, replicaId) {
      attempts.inc({ model, replica: replicaId });
    },
    observe(row) {
      requests.inc({ model: row.model, status: String(row.status) });
      if (row.promptTokens) tokens.inc({ model: row.model, kind: "prompt" }, row.promptTokens);
      if (row.completionTokens)
        tokens.inc({ model: row.model, kind: "completion" }, row.completionTokens);
      latency.observe({ model: row.model }, row.latencyMs / 1_000);
      if (row.ttftMs !== null && row.ttftMs !== undefined)
        ttft.observe({ model: row.model }, row.ttftMs / 1_000);
    },
  };
}
