import type { NodeView } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { parseCtlArgs } from "../program";
import { nodesInDomain, nodesTable } from "../views/nodes-view";
import { labelInput } from "./facility";

function node(
  name: string,
  labels: Record<string, string>,
  over: Partial<NodeView> = {},
): NodeView {
  return {
    ...{ id: `id-${name}`, name, state: "ready", simulated: false, simulationProfile: null },
    ...{ agentVersion: "1.4.0", labels, storedLabels: {}, cordon: null, engines: [], features: [] },
    ...{ firstSeenAt: "2026-12-02T10:00:00.000Z", lastSeenAt: "2026-12-02T10:00:00.000Z" },
    cpu: { model: "x", cores: 8, utilizationPercent: null },
    memory: { bytesTotal: 1e9, bytesUsed: null },
    disk: { bytesTotal: 1e9, bytesFree: null },
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
