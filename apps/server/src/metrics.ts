// Prometheus metrics for the server. Fleet gauges are computed when scraped, from live state,
// so nothing ticks between scrapes and nothing can drift.
import { Counter, Gauge, type Registry, collectDefaultMetrics } from "prom-client";
import type { NodesService, QuotasService } from "@llmgw/api";
import { registerEngineInstallMetrics } from "./metrics-engine-installs";
import { ScrapeRegistry, registerFleetMetrics } from "./metrics-fleet";
import { registerNodeMetrics } from "./metrics-nodes";
import { registerQuotaMetrics } from "./metrics-quotas";
import type { FleetView } from "./fleet/fleet-view";

export interface ServerMetrics {
  registry: Registry;
  malformedFrames: Counter;
  refusedAgents: Counter;
}

export function createMetrics(
  nodes: Pick<NodesService, "list">,
  fleet?: FleetView,
  quotas?: Pick<QuotasService, "list">,
): ServerMetrics {
  const registry = new ScrapeRegistry();
  collectDefaultMetrics({ register: registry, prefix: "llmgw_process_" });
  const malformedFrames = new Counter({
    name: "llmgw_agent_frames_malformed_total",
    help: "Frames on the agent port that were not a valid Envelope.",
    registers: [registry],
  });
  const refusedAgents = new Counter({
    name: "llmgw_agent_connections_refused_total",
    help: "Agent connections refused before Register: no valid node certificate (missing, another CA, expired, revoked), a Register for another node, or the agent port's limits for strangers (per-address cap, byte budget, first frame, timeout).",
    registers: [registry],
  });
  new Gauge({
    name: "llmgw_nodes",
    help: "Known nodes by state.",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const list = await nodes.list();
      this.reset();
      for (const state of ["ready", "unreachable"] as const) {
        this.set({ state }, list.filter((node) => node.state === state).length);
      }
    },
  });
  registerEngineInstallMetrics(registry, nodes);
  if (fleet) {
    registerFleetMetrics(registry, fleet);
    registerNodeMetrics(registry, fleet);
  }
  if (quotas) registerQuotaMetrics(registry, quotas);
  return { registry, malformedFrames, refusedAgents };
}
