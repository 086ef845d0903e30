// /metrics for the rows waiting out an unreachable store: how many wait, and how many were ever
// dropped (the queue full, or a batch the store kept refusing). A dropped row is a lost usage
// record or audit row, so `llmgw_store_queue_dropped_total` above 0 deserves an alert.
import { Counter, Gauge, type Registry } from "prom-client";
import type { StoreQueue } from "./store-queue";

export function registerStoreQueueMetrics(
  registry: Registry,
  queues: Record<string, Pick<StoreQueue<unknown>, "size" | "dropped">>,
): void {
  const entries = Object.entries(queues);
  new Gauge({
    name: "llmgw_store_queue_pending",
    help: "Rows (usage records, audit rows) waiting for the store to take them",
    labelNames: ["queue"],
    registers: [registry],
    collect() {
      for (const [queue, rows] of entries) this.set({ queue }, rows.size());
    },
  });
  new Counter({
    name: "llmgw_store_queue_dropped_total",
    help: "Rows dropped without being written: the queue was full, or the store kept refusing them",
    labelNames: ["queue"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [queue, rows] of entries) this.inc({ queue }, rows.dropped());
    },
  });
}
