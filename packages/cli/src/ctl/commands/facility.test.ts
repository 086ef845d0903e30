import type { NodeView } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { parseCtlArgs } from "../program";
import { nodesInDomain, nodesTable } from "../views/nodes-view";
import { facilityTable, labelInput } from "./facility";

function node(
  name: string,
  labels: Record<string, string>,
  over: Partial<NodeView> = {},
): NodeView {
  return {
    ...{ id: `id-${name}`, name, state: "ready", simulated: false, simulationProfile: null },
    ...{ agentVersion: "1.4.0", labels, storedLabels: {}, cordon: null, engines: [] },
    ...{ engineInstalls: [], features: [] },
    engineBuild: { choice: "auto", setBy: null, setAt: null, applied: null },
    ...{ firstSeenAt: "2026-12-02T10:00:00.000Z", lastSeenAt: "2026-12-02T10:00:00.000Z" },
    cpu: { model: "x", cores: 8, utilizationPercent: null },
    memory: { bytesTotal: 1e9, bytesUsed: null },
    disk: { bytesTotal: 1e9, bytesFree: null },
    network: { receiveBytesPerSecond: null, transmitBytesPerSecond: null },
    heartbeatAgeSeconds: null,
    ...{ os: "linux", arch: "x64", driverVersion: null, gpus: [] },
    ...over,
  };
}

describe("ctl label", () => {
  it("sends key=value as set and key- as remove", () => {
    const parsed = parseCtlArgs(["label", "gpu-1", "llmgw.io/rack=r12", "team-"]);
    if (typeof parsed === "number") throw new Error("refused");
    expect(labelInput(parsed.args)).toEqual({
      id: "gpu-1",
      set: { "llmgw.io/rack": "r12" },
      remove: ["team"],
    });
  });

  it("names each bad word and refuses a missing node or an empty edit", () => {
    expect(() => labelInput(["gpu-1", "llmgw.io/shelf=1", "rack"])).toThrow(
      /llmgw\.io\/shelf.*"rack" is neither/,
    );
    expect(() => labelInput([])).toThrow(/NODE is missing/);
    expect(() => labelInput(["gpu-1"])).toThrow(/no labels given/);
  });
});

describe("ctl nodes LOCATION and --domain", () => {
  const nodes = [
    node("gpu-1", { "llmgw.io/site": "dc1", "llmgw.io/rack": "r12", "llmgw.io/pdu": "p1" }),
    node("gpu-2", { "llmgw.io/rack": "r13" }, { cordon: "draining" }),
    node("cpu-1", {}),
  ];

  it("shows each node's location compactly and its cordon with its state", () => {
    const lines = nodesTable(nodes, Date.parse("2026-12-02T10:00:05.000Z")).trim().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+STATE\s+LOCATION\s+GPUS/);
    expect(lines[1]).toMatch(/^gpu-1\s+ready\s+dc1\/-\/-\/r12\/p1\s/);
    expect(lines[2]).toMatch(/^gpu-2\s+ready, draining\s+-\/-\/-\/r13\/-\s/);
    expect(lines[3]).toMatch(/^cpu-1\s+ready\s+-\s/);
  });

  it("keeps only the nodes in the domain asked for, and refuses a domain that is not one", () => {
    expect(nodesInDomain(nodes, "rack=r12").map((n) => n.name)).toEqual(["gpu-1"]);
    expect(nodesInDomain(nodes, "site=dc2")).toEqual([]);
    expect(() => nodesInDomain(nodes, "shelf=3")).toThrow(/names no domain kind/);
  });
});

describe("ctl facility", () => {
  it("lists each domain with its nodes, cards, power and hold, and holds on domains no node names", () => {
    const hold = {
      domain: "rack=r12",
      isDraining: true,
      heldBy: "ada",
      heldAt: "2026-12-02T10:00:00.000Z",
    };
    const text = facilityTable({
      domains: [
        {
          domain: "rack=r12",
          kind: "rack",
          value: "r12",
          nodes: ["gpu-1", "gpu-2"],
          cards: 16,
          powerWatts: 5400.4,
          hold,
        },
        {
          domain: "site=dc1",
          kind: "site",
          value: "dc1",
          nodes: ["gpu-1"],
          cards: 8,
          powerWatts: null,
          hold: null,
        },
      ],
      holds: [hold, { ...hold, domain: "pdu=p9", isDraining: false }],
    });
    const lines = text.trim().split("\n");
    expect(lines[0]).toMatch(/^DOMAIN\s+NODES\s+CARDS\s+POWER\s+HOLD$/);
    expect(lines[1]).toMatch(/^rack=r12\s+gpu-1,gpu-2\s+16\s+5400 W\s+held by ada, draining$/);
    expect(lines[2]).toMatch(/^site=dc1\s+gpu-1\s+8\s+-\s+-$/);
    expect(lines[3]).toMatch(/^pdu=p9\s+-\s+0\s+-\s+held by ada$/);
  });

  it("accepts --drain on hold", () => {
    const parsed = parseCtlArgs(["facility", "hold", "rack=r12", "--drain"]);
    expect(typeof parsed !== "number" && parsed.values.drain).toBe(true);
  });
});
