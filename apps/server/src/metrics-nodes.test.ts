// The per node gauges as Prometheus reads them, from a real registry fed real protobuf frames.
import { create } from "@bufbuild/protobuf";
import { HeartbeatSchema, RegisterSchema } from "@llmgw/proto";
import { Gauge, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { FleetRegistry } from "./fleet/registry";
import { gauge, ScrapeRegistry } from "./metrics-fleet";
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
    const prometheus = new ScrapeRegistry();
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
    const prometheus = new ScrapeRegistry();
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
    const prometheus = new ScrapeRegistry();
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

  it("writes the same exposition text as prom-client's own Gauge for the same samples", async () => {
    // Awkward label values (escaped), a label set given twice (first place, last value), and
    // values that are left out (undefined, NaN, infinite).
    const samples: Array<[Record<string, string>, number | undefined]> = [
      [{ node: "plain", gpu: "0" }, 1.5],
      [{ node: 'quote"d', gpu: "1" }, 0],
      [{ node: "back\\slash", gpu: "2" }, -3],
      [{ node: "new\nline", gpu: "3" }, 1e21],
      [{ node: "plain", gpu: "1" }, undefined],
      [{ node: "nan", gpu: "0" }, NaN],
      [{ node: "inf", gpu: "0" }, Infinity],
      [{ node: "twice", gpu: "0" }, 1],
      [{ node: "after", gpu: "0" }, 7],
      [{ node: "twice", gpu: "0" }, 2],
      [{ node: "ünïcode", gpu: "4" }, 0.1 + 0.2],
    ];
    const ours = new ScrapeRegistry();
    gauge(ours, "llmgw_test_cards", "A test gauge.", ["node", "gpu"], () => samples);
    gauge(ours, "llmgw_test_unlabelled", "No labels.", [], () => [[{}, 42]]);
    const theirs = new Registry();
    const cards = new Gauge({
      name: "llmgw_test_cards",
      help: "A test gauge.",
      labelNames: ["node", "gpu"],
      registers: [theirs],
    });
    for (const [labels, value] of samples)
      if (value !== undefined && Number.isFinite(value)) cards.set(labels, value);
    new Gauge({ name: "llmgw_test_unlabelled", help: "No labels.", registers: [theirs] }).set(42);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('llmgw_test_cards{node="quote\\"d",gpu="1"} 0');
    expect(text).toContain('llmgw_test_cards{node="twice",gpu="0"} 2');
    expect(text).toContain("llmgw_test_unlabelled 42");
  });
});
