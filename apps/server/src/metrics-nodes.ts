// Per node gauges computed from the agents' sessions when /metrics is scraped: host load, network,
// how old the last heartbeat is, and the agent's version. One series per node (the version is a
// label of a single info series), so the series count grows with the fleet and nothing else.
import type { Registry } from "prom-client";
import type { FleetRegistry, LiveNode } from "./fleet/registry";
import { gauge, type Sample } from "./metrics-fleet";

interface NodeMetricsSource {
  registry: Pick<FleetRegistry, "all">;
  nowMs(): number;
}

/** One series per connected node; a figure its last heartbeat left out is left out too. */
function perConnectedNode(
  source: NodeMetricsSource,
  pick: (live: LiveNode) => number | bigint | undefined,
): () => Sample[] {
  return () =>
    source.registry
      .all()
      .filter((live) => live.isConnected)
      .map((live): Sample => {
        const value = pick(live);
        return [{ node: live.register.nodeName }, value === undefined ? undefined : Number(value)];
      });
}

function hostGauges(registry: Registry, source: NodeMetricsSource): void {
  const series: Array<[string, string, (live: LiveNode) => number | bigint | undefined]> = [
    [
      "llmgw_node_cpu_utilization_percent",
      "CPU busy share since the previous heartbeat.",
      (live) => live.heartbeat?.cpuUtilizationPercent,
    ],
    [
      "llmgw_node_memory_used_bytes",
      "Memory in use as last reported.",
      (live) => live.heartbeat?.memoryBytesUsed,
    ],
    [
      "llmgw_node_memory_total_bytes",
      "Memory installed.",
      (live) => live.register.hardware?.memoryBytesTotal,
    ],
    [
      "llmgw_node_disk_free_bytes",
      "Free bytes on the disk holding the agent's data (its weight cache), as last reported.",
      (live) => live.heartbeat?.diskBytesFree,
    ],
    [
      "llmgw_node_disk_total_bytes",
      "Size of the disk holding the agent's data.",
      (live) => live.register.hardware?.diskBytesTotal,
    ],
    [
      "llmgw_node_network_receive_bytes_per_second",
      "Bytes a second received over interfaces other than loopback (Linux agents).",
      (live) => live.heartbeat?.networkReceiveBytesPerSecond,
    ],
    [
      "llmgw_node_network_transmit_bytes_per_second",
      "Bytes a second sent over interfaces other than loopback (Linux agents).",
      (live) => live.heartbeat?.networkTransmitBytesPerSecond,
    ],
  ];
  for (const [name, help, pick] of series)
    gauge(registry, name, help, ["node"], perConnectedNode(source, pick));
}

export function registerNodeMetrics(registry: Registry, source: NodeMetricsSource): void {
  hostGauges(registry, source);
  // Kept for a node whose session closed too, so an alert on a growing age fires for it.
  gauge(
    registry,
    "llmgw_node_heartbeat_age_seconds",
    "Seconds since the node's last heartbeat reached this control plane.",
    ["node"],
    () =>
      source.registry
        .all()
        .map((live): Sample => [
          { node: live.register.nodeName },
          live.heartbeatAtMs === null
            ? undefined
            : Math.max(0, source.nowMs() - live.heartbeatAtMs) / 1000,
        ]),
  );
  gauge(
    registry,
    "llmgw_node_agent_info",
    "1 for each connected node, with the version of its agent.",
    ["node", "version"],
    () =>
      source.registry
        .all()
        .filter((live) => live.isConnected)
        .map((live): Sample => [
          { node: live.register.nodeName, version: live.register.agentVersion },
          1,
        ]),
  );
}
