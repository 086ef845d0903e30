// Prometheus series for /v1: requests, tokens, latency and time to first byte per model, and each
// endpoint's breaker and in-flight count, read from live state when scraped.
import { Counter, Gauge, type Registry } from "prom-client";
import type { NewUsageRecord } from "@llmgw/db";
import type { AdmissionQueues } from "./admission";
import type { EndpointPool } from "./endpoints";
import { GatewayTallies, TalliedHistogram } from "./gateway-tallies";

export interface GatewayMetrics {
  observe(row: NewUsageRecord): void;
  /** One request sent to one endpoint: a retry counts again, so attempts can be held against requests. */
  attempt(model: string, replicaId: string): void;
}

export function registerGatewayMetrics(
  registry: Registry,
  pool: EndpointPool,
  queues: AdmissionQueues,
  nowMs: () => number,
): GatewayMetrics {
  const registers = [registry];
  // Requests add to plain numbers (gateway-tallies.ts); these series are written from them when read.
  const tallies = new GatewayTallies();
  new Counter({
    name: "llmgw_gateway_requests_total",
    help: "/v1 requests by model and answer status.",
    labelNames: ["model", "status"],
    registers,
    collect() {
      this.reset();
      for (const [model, tally] of tallies.entries())
        for (const [status, count] of tally.requests)
          this.inc({ model, status: String(status) }, count);
    },
  });
  new Counter({
    name: "llmgw_gateway_tokens_total",
    help: "Tokens the engines reported, by model and kind.",
    labelNames: ["model", "kind"],
    registers,
    collect() {
      this.reset();
      for (const [model, tally] of tallies.entries()) {
        if (tally.promptTokens > 0) this.inc({ model, kind: "prompt" }, tally.promptTokens);
        if (tally.completionTokens > 0)
          this.inc({ model, kind: "completion" }, tally.completionTokens);
      }
    },
  });
  new Counter({
    name: "llmgw_gateway_upstream_attempts_total",
    help: "Requests sent to engines, retries included, by model and replica.",
    labelNames: ["model", "replica"],
    registers,
    collect() {
      this.reset();
      for (const [model, tally] of tallies.entries())
        for (const [replica, count] of tally.attempts) this.inc({ model, replica }, count);
    },
  });
  new TalliedHistogram(
    {
      name: "llmgw_gateway_request_duration_seconds",
      help: "Time from admission to the end of the answer.",
      registry,
    },
    (tally) => tally.latency,
    tallies,
  );
  new TalliedHistogram(
    {
      name: "llmgw_gateway_time_to_first_byte_seconds",
      help: "Time from admission to the first byte from the engine.",
      registry,
    },
    (tally) => tally.firstByte,
    tallies,
  );
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
      const { attempts } = tallies.of(model);
      attempts.set(replicaId, (attempts.get(replicaId) ?? 0) + 1);
    },
    observe(row) {
      const tally = tallies.of(row.model);
      tally.requests.set(row.status, (tally.requests.get(row.status) ?? 0) + 1);
      tally.promptTokens += row.promptTokens ?? 0;
      tally.completionTokens += row.completionTokens ?? 0;
      tally.latency.add(row.latencyMs / 1_000);
      if (row.ttftMs !== null && row.ttftMs !== undefined) tally.firstByte.add(row.ttftMs / 1_000);
    },
  };
}
