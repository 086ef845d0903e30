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
  // prom-client hashes a label object on every call; the labelled series are kept here instead,
  // one per model (and status, kind, replica), as many as the series themselves.
  const requestsOf = childrenOf((key: [string, string]) =>
    requests.labels({ model: key[0], status: key[1] }),
  );
  const promptOf = childrenOf((key: [string]) => tokens.labels({ model: key[0], kind: "prompt" }));
  const completionOf = childrenOf((key: [string]) =>
    tokens.labels({ model: key[0], kind: "completion" }),
  );
  const attemptsOf = childrenOf((key: [string, string]) =>
    attempts.labels({ model: key[0], replica: key[1] }),
  );
  const latencyOf = childrenOf((key: [string]) => latency.labels({ model: key[0] }));
  const ttftOf = childrenOf((key: [string]) => ttft.labels({ model: key[0] }));
  return {
    attempt(model, replicaId) {
      attemptsOf([model, replicaId]).inc();
    },
    observe(row) {
      requestsOf([row.model, String(row.status)]).inc();
      if (row.promptTokens) promptOf([row.model]).inc(row.promptTokens);
      if (row.completionTokens) completionOf([row.model]).inc(row.completionTokens);
      latencyOf([row.model]).observe(row.latencyMs / 1_000);
      if (row.ttftMs !== null && row.ttftMs !== undefined)
        ttftOf([row.model]).observe(row.ttftMs / 1_000);
    },
  };
}

/** One labelled series per distinct key, made on first use and kept. */
function childrenOf<Key extends string[], Child>(make: (key: Key) => Child): (key: Key) => Child {
  const made = new Map<string, Child>();
  return (key) => {
    const id = key.join("\u0000");
    let child = made.get(id);
    if (child === undefined) {
      child = make(key);
      made.set(id, child);
    }
    return child;
  };
}
