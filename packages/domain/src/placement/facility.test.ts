// Facility-aware placement: replicas spread across racks and PDUs, and keep_within holds a
// multi-node replica's shards in one domain; each with the explain line an operator reads.
import { describe, expect, it } from "vitest";
import { parseModelDefinition } from "../catalog/model-definition";
import { explainPlacement, formatExplanation } from "./explain";
import { buildFleet } from "./fleet";
import { placeReplica, placeReplicas } from "./place";
import { bestFits, exhaustiveFits } from "./search";
import { cards, node, request } from "./test-fixtures";
import { DEFAULT_PLACEMENT_POLICY, type ExistingReplica, type PlacementNode } from "./types";

const at = (rack: string, pdu?: string) => ({
  "llmgw.io/rack": rack,
  ...(pdu === undefined ? {} : { "llmgw.io/pdu": pdu }),
});

const held = (id: string, model: string, nodeId: string): ExistingReplica => ({
  id,
  model,
  shards: [{ nodeId, cardIndexes: [0] }],
  memoryGb: 0,
  cpuCores: 0,
});

describe("spread across racks and PDUs", () => {
  // a-1 is fullest, so packing alone would choose it; it shares rack r1 with the replica on a-2.
  const nodes: PlacementNode[] = [
    node("a-1", { labels: at("r1", "p1"), cards: cards(2) }),
    node("a-2", { labels: at("r1", "p1"), cards: cards(8) }),
    node("b-1", { labels: at("r2", "p2"), cards: cards(8) }),
  ];

  it("puts the next replica of a model in a rack that holds none, and explain names the rack", () => {
    const replicas = [held("qwen-7b/r0", "qwen-7b", "a-2")];
    const result = placeReplica({ nodes, replicas }, request());
    expect(result).toMatchObject({ ok: true, shards: [{ nodeId: "b-1" }] });
    const lines = formatExplanation(explainPlacement({ nodes, replicas }, request()));
    expect(lines).toContain(
      "a-1: fits, not chosen (rack r1 already holds 1 replica of qwen-7b; replicas spread across racks and PDUs; PDU p1 already holds 1 replica of qwen-7b; replicas spread across racks and PDUs)",
    );
  });

  it("spreads three replicas over three PDUs before doubling up, and lets other models pack", () => {
    const three = [
      node("x", { labels: at("r1", "p1"), cards: cards(4) }),
      node("y", { labels: at("r1", "p2"), cards: cards(4) }),
      node("z", { labels: at("r2", "p3"), cards: cards(4) }),
    ];
    const asks = ["r1", "r2", "r3"].map((r) => request({ replicaId: `qwen-7b/${r}` }));
    const placed = placeReplicas({ nodes: three, replicas: [] }, asks).map((result) =>
      result.ok ? result.shards[0]?.nodeId : result.summary,
    );
    expect(new Set(placed).size).toBe(3);
    // Another model ignores qwen's racks: packing picks the fullest node, z, where qwen is.
    const other = placeReplica(
      { nodes: three, replicas: [held("qwen-7b/r1", "qwen-7b", "z")] },
      request({ model: "llama" }),
    );
    expect(other).toMatchObject({ ok: true, shards: [{ nodeId: "z" }] });
  });

  it("agrees with scoring every node when racks hold the model", () => {
    const many = Array.from({ length: 24 }, (_, i) =>
      node(`n${i}`, { labels: at(`r${i % 4}`, `p${i % 3}`), cards: cards(1 + (i % 5)) }),
    );
    const replicas = [held("m/r0", "m", "n1"), held("m/r1", "m", "n6"), held("o/r0", "o", "n2")];
    for (const nodesWanted of [1, 3]) {
      const ask = request({ model: "m", nodes: nodesWanted });
      const fleet = buildFleet(many, replicas);
      const policy = DEFAULT_PLACEMENT_POLICY;
      const fast = bestFits(fleet, policy, ask, ["H100-80G"]).map((f) => f.usage.node.id);
      const slow = exhaustiveFits(fleet, policy, ask, ["H100-80G"]).map((f) => f.usage.node.id);
      expect(fast).toEqual(slow);
    }
  });
});

describe("keep_within", () => {
  const parsed = parseModelDefinition({
    name: "big",
    source: "org/big",
    size_gb: 100,
    profiles: [
      { name: "two", engine: "vllm", gpu: "H100-80G", gpus: 8, nodes: 2, keep_within: "rack" },
    ],
  });

  it("is part of the profile, and refused on a one-node profile naming why", () => {
    expect(parsed.ok && parsed.model.profiles[0]?.keep_within).toBe("rack");
    const single = parseModelDefinition({
      name: "small",
      source: "org/small",
      profiles: [{ name: "one", engine: "vllm", gpu: "H100-80G", keep_within: "row" }],
    });
    expect(single.ok).toBe(false);
    if (!single.ok) expect(single.errors.join("\n")).toMatch(/keep_within: row.*nodes: 1/);
    const bad = parseModelDefinition({
      name: "small",
      source: "org/small",
      profiles: [{ name: "two", engine: "vllm", nodes: 2, keep_within: "pdu" }],
    });
    expect(!bad.ok && bad.errors.join("\n")).toMatch(/keep_within must be one of rack, row, room/);
  });

  it("puts every shard in one rack, even when the best two nodes are in different racks", () => {
    const nodes = [
      node("a-1", { labels: at("r1") }),
      node("b-1", { labels: at("r2") }),
      node("b-2", { labels: at("r2") }),
      node("loose"),
    ];
    const ask = request({ gpus: 8, nodes: 2, keepWithin: "rack" });
    const result = placeReplica({ nodes, replicas: [] }, ask);
    expect(result).toMatchObject({ ok: true, shards: [{ nodeId: "b-1" }, { nodeId: "b-2" }] });
    const lines = formatExplanation(explainPlacement({ nodes, replicas: [] }, ask));
    expect(lines).toContain(
      "b-1: chosen (cards 0,1,2,3,4,5,6,7; in rack r2; every shard of a replica stays within one rack)",
    );
    expect(lines).toContain(
      "loose: has no llmgw.io/rack label; the profile keeps a replica's shards within one rack (keep_within)",
    );
  });

  it("refuses when no one rack has enough, saying what each rack has", () => {
    const nodes = [node("a-1", { labels: at("r1") }), node("b-1", { labels: at("r2") })];
    const result = placeReplica(
      { nodes, replicas: [] },
      request({ gpus: 8, nodes: 2, keepWithin: "rack" }),
    );
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.summary).toBe(
        'model "qwen-7b" profile "h100": needs 2 nodes within one rack (keep_within) and no rack has them: rack r1 has 1, rack r2 has 1',
      );
  });
});
