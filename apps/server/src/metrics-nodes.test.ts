// The per node gauges as Prometheus reads them, from a real registry fed real protobuf frames.
import { create } from "@bufbuild/protobuf";
import { HeartbeatSchema, RegisterSchema } from "@llmgw/proto";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { FleetRegistry } from "./fleet/registry";
import { gauge } from "./metrics-fleet";
import { registerNodeMetrics } from "./metrics-nodes";

const GIB = 2n ** 30n;

function register(nodeId: string, nodeName: string, agentVersion: string) {
  return create(RegisterSchema, {
    nodeId,
    nodeName,
    agentVersion,
    hardware: { memoryBytesTotal: 64n * GIB, diskBytesTotal: 500n * GIB },
  });
}

describe("node metrics", () => {
  it("exports host load, network, heartbeat age and agent version per node", async () => {
    let nowMs = 1_000_000;
    const fleet = new FleetRegistry();
    const prometheus = new Registry();
    registerNodeMetrics(prometheus, { registry: fleet, nowMs: () => nowMs });
    fleet.connect(register("id-a", "node-a", "0.9.1"), 1, nowMs);
    fleet.connect(register("id-b", "node-b", "0.9.0"), 2, nowMs);
    fleet.heartbeat(
      "id-a",
      1,
      create(HeartbeatSchema, {
        cpuUtilizationPercent: 37.5,
        memoryBytesUsed: 12n * GIB,
        diskBytesFree: 100n * GIB,
        networkReceiveBytesPerSecond: 2_500_000,
        networkTransmitBytesPerSecond: 125_000,
      }),
      nowMs,
    );
    // node-b's first beat has no CPU or network figure yet (nothing to compare with).
    fleet.heartbeat("id-b", 2, create(HeartbeatSchema, { memoryBytesUsed: GIB }), nowMs - 4_000);
    nowMs += 2_500;
    const text = await prometheus.metrics();
    expect(text).toContain('llmgw_node_cpu_utilization_percent{node="node-a"} 37.5');
    expect(text).toContain(`llmgw_node_memory_used_bytes{node="node-a"} ${12 * 2 ** 30}`);
    expect(text).toContain(`llmgw_node_memory_total_bytes{node="node-a"} ${64 * 2 ** 30}`);
    expect(text).toContain(`llmgw_node_disk_free_bytes{node="node-a"} ${100 * 2 ** 30}`);
    expect(text).toContain(`llmgw_node_disk_total_bytes{node="node-a"} ${500 * 2 ** 30}`);
    expect(text).toContain('llmgw_node_network_receive_bytes_per_second{node="node-a"} 2500000');
    expect(text).toContain('llmgw_node_network_transmit_bytes_per_second{node="node-a"} 125000');
    expect(text).toContain('llmgw_node_heartbeat_age_seconds{node="node-a"} 2.5');
    expect(text).toContain('llmgw_node_heartbeat_age_seconds{node="node-b"} 6.5');
    expect(text).toContain('llmgw_node_agent_info{node="node-a",version="0.9.1"} 1');
    expect(text).toContain('llmgw_node_agent_info{node="node-b",version="0.9.0"} 1');
    // Absent is never zero: node-b's unmeasured figures have no series at all.
    expect(text).not.toMatch(/llmgw_node_cpu_utilization_percent\{node="node-b"\}/);
    expect(text).not.toMatch(/llmgw_node_network_receive_bytes_per_second\{node="node-b"\}/);
  });

  it("drops a gone node's live figures but keeps its heartbeat age growing", async () => {
    let nowMs = 5_000;
    const fleet = new FleetRegistry();
    const prometheus = new Registry();
    registerNodeMetrics(prometheus, { registry: fleet, nowMs: () => nowMs });
    fleet.connect(register("id-a", "node-a", "0.9.1"), 1, nowMs);
    fleet.heartbeat("id-a", 1, create(HeartbeatSchema, { cpuUtilizationPercent: 5 }), nowMs);
    fleet.disconnect("id-a", 1, nowMs);
    nowMs += 30_000;
    const text = await prometheus.metrics();
    expect(text).toContain('llmgw_node_heartbeat_age_seconds{node="node-a"} 30');
    expect(text).not.toMatch(/llmgw_node_cpu_utilization_percent\{/);
    expect(text).not.toMatch(/llmgw_node_agent_info\{/);
  });

  it("keeps no series between scrapes, and computes them again at the next one", async () => {
    const prometheus = new Registry();
    let nodes = ["node-a", "node-b"];
    const perNode = gauge(prometheus, "llmgw_test_per_node", "A test gauge.", ["node"], () =>
      nodes.map((node) => [{ node }, 1]),
    );
    // prom-client's own table of series (internal): what the server holds while nothing scrapes.
    const held = () => Object.keys((perNode as unknown as { hashMap: object }).hashMap).length;
    expect(await prometheus.metrics()).toContain('llmgw_test_per_node{node="node-b"} 1');
    expect(held()).toBe(0);
    nodes = ["node-a"];
    const second = await prometheus.metrics();
    expect(second).toContain('llmgw_test_per_node{node="node-a"} 1');
    expect(second).not.toContain('node="node-b"');
    expect(held()).toBe(0);
  });
});
