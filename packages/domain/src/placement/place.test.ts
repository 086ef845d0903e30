import { describe, expect, it } from "vitest";
import { must } from "../must";
import { placeReplica, placeReplicas } from "./place";
import { cards, node, request } from "./test-fixtures";
import type { ExistingReplica, PlacementResult } from "./types";

function reasonsOf(result: PlacementResult): Record<string, string[]> {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.shards)}`);
  return Object.fromEntries(
    result.rejections.map((rejection) => [rejection.nodeName, rejection.reasons]),
  );
}

const held = (
  id: string,
  nodeId: string,
  cardIndexes: number[],
  model = id.split("/")[0] ?? id,
): ExistingReplica => ({
  id,
  model,
  shards: [{ nodeId, cardIndexes }],
  memoryGb: 16,
  cpuCores: 4,
});

describe("placeReplica refuses a node, saying why", () => {
  it("when it is unreachable", () => {
    const result = placeReplica(
      { nodes: [node("node-1", { isReachable: false })], replicas: [] },
      request(),
    );
    expect(reasonsOf(result)).toEqual({
      "node-1": ["is unreachable; nothing is placed on it until it answers again"],
    });
  });

  it("when it does not offer the engine", () => {
    const result = placeReplica(
      { nodes: [node("node-1", { engines: ["llamacpp", "sim"] })], replicas: [] },
      request(),
    );
    expect(reasonsOf(result)["node-1"]).toEqual([
      "does not offer engine vllm (offers llamacpp, sim)",
    ]);
  });

  it("when it has a role the profile does not ask for", () => {
    const nodes = [node("judge-1", { labels: { "llmgw.role": "judge" } })];
    expect(reasonsOf(placeReplica({ nodes, replicas: [] }, request()))["judge-1"]).toEqual([
      'has role "judge" and takes only profiles whose node_selector asks for llmgw.role: judge',
    ]);
    expect(
      placeReplica({ nodes, replicas: [] }, request({ nodeSelector: { "llmgw.role": "judge" } }))
        .ok,
    ).toBe(true);
  });

  it("when its labels do not match the selector, naming each label", () => {
    const nodes = [node("node-1", { labels: { zone: "b" } })];
    const result = placeReplica(
      { nodes, replicas: [] },
      request({ nodeSelector: { zone: "a", "llmgw.role": "judge" } }),
    );
    expect(reasonsOf(result)["node-1"]).toEqual([
      "does not match node_selector: zone=a (is b), llmgw.role=judge (absent)",
    ]);
  });

  it("when it has no GPUs, or none of the class", () => {
    const nodes = [
      node("cpu-1", { cards: [] }),
      node("l40s-1", { cards: cards(4, "L40S", 48, 8.9) }),
    ];
    expect(reasonsOf(placeReplica({ nodes, replicas: [] }, request({ gpus: 2 })))).toEqual({
      "cpu-1": ["has no GPUs; the profile needs 2 H100-80G"],
      "l40s-1": ["has no H100-80G cards (has 4 L40S)"],
    });
  });

  it("when too few cards are free, naming who holds them and which are unhealthy", () => {
    const nodeCards = cards(4);
    nodeCards[3] = { ...must(nodeCards[3], "card 3"), isHealthy: false };
    const nodes = [node("node-3", { cards: nodeCards })];
    const replicas = [held("qwen-7b/r2", "node-3", [0, 2]), held("llama/r1", "node-3", [1])];
    const result = placeReplica({ nodes, replicas }, request({ model: "other", gpus: 2 }));
    expect(reasonsOf(result)["node-3"]).toEqual([
      "needs 2 free H100-80G cards, has 0 (cards 0,2 held by qwen-7b/r2; card 1 held by llama/r1; card 3 unhealthy)",
    ]);
  });

  it("when a need matches no card, describing the need", () => {
    const nodes = [node("turing", { cards: cards(2, "RTX-2080-SUPER", 8, 7.5) })];
    const result = placeReplica(
      { nodes, replicas: [] },
      request({ gpu: { min_compute_capability: 8, min_memory_gb: 24 } }),
    );
    expect(reasonsOf(result)["turing"]).toEqual([
      "has no compute capability ≥ 8 and ≥ 24 GB cards (has 2 RTX-2080-SUPER)",
    ]);
  });

  it("when memory, cores or disk are short, listing every shortfall for explain", () => {
    const nodes = [node("small", { memoryGbTotal: 32, cpuCoresTotal: 8, diskGbFree: 10 })];
    const replicas = [held("a/r1", "small", [0])];
    const result = placeReplica({ nodes, replicas }, request({ memoryGb: 24, cpuCores: 6 }));
    expect(reasonsOf(result)["small"]).toEqual([
      "needs 24 GB of free memory, has 16 GB of 32 GB",
      "needs 6 free CPU cores, has 4 of 8",
      "needs 15 GB of free disk for the weights (not cached here), has 10 GB",
    ]);
  });

  it("but skips the disk check where the weights are already cached", () => {
    const nodes = [node("small", { diskGbFree: 1, cachedSources: ["Qwen/Qwen2.5-7B-Instruct"] })];
    expect(placeReplica({ nodes, replicas: [] }, request()).ok).toBe(true);
  });

  it("and sums up the refusals in one line", () => {
    const nodes = [
      node("a", { isReachable: false }),
      node("b", { cards: [] }),
      node("c", { cards: [] }),
    ];
    const result = placeReplica({ nodes, replicas: [] }, request());
    expect(!result.ok && result.summary).toBe(
      'model "qwen-7b" profile "h100": no node can take a replica (1 unreachable, 2 without enough free cards)',
    );
  });
});

describe("placeReplica chooses", () => {
  it("free healthy cards of the class, never a held or unhealthy one", () => {
    const nodeCards = cards(4);
    nodeCards[1] = { ...must(nodeCards[1], "card 1"), isHealthy: false };
    const result = placeReplica(
      { nodes: [node("n", { cards: nodeCards })], replicas: [held("x/r1", "n", [0])] },
      request({ gpus: 2 }),
    );
    expect(result).toEqual({
      ok: true,
      replicaId: "qwen-7b/r1",
      shards: [{ nodeId: "n", cardIndexes: [2, 3] }],
      gpuClass: "H100-80G",
    });
  });

  it("counting an unhealthy card that a replica still holds neither used nor free", () => {
    const nodeCards = cards(4);
    nodeCards[3] = { ...must(nodeCards[3], "card 3"), isHealthy: false };
    const result = placeReplica(
      { nodes: [node("n", { cards: nodeCards })], replicas: [held("x/r1", "n", [3])] },
      request({ gpus: 3 }),
    );
    expect(result.ok && result.shards[0]?.cardIndexes).toEqual([0, 1, 2]);
  });

  it("the fuller node for a GPU replica, keeping whole nodes free", () => {
    const nodes = [node("empty"), node("busy")];
    const result = placeReplica(
      { nodes, replicas: [held("other/r1", "busy", [0, 1, 2, 3, 4])] },
      request({ gpus: 2 }),
    );
    expect(result.ok && result.shards[0]).toEqual({ nodeId: "busy", cardIndexes: [5, 6] });
  });

  it("a node without the model before packing, so one node lost loses fewer of its replicas", () => {
    const nodes = [node("a"), node("b")];
    const result = placeReplica(
      { nodes, replicas: [held("qwen-7b/r0", "a", [0])] },
      request({ replicaId: "qwen-7b/r1" }),
    );
    expect(result.ok && result.shards[0]?.nodeId).toBe("b");
  });

  it("the least loaded node for a CPU replica, spreading rather than packing", () => {
    const nodes = [node("a", { cards: [] }), node("b", { cards: [] }), node("c", { cards: [] })];
    const cpu = (index: number) =>
      request({
        replicaId: `cpu/r${index}`,
        model: `cpu-${index}`,
        engine: "llamacpp",
        gpu: undefined,
        gpus: 0,
      });
    const results = placeReplicas({ nodes, replicas: [] }, [cpu(1), cpu(2), cpu(3)]);
    expect(results.map((result) => result.ok && result.shards[0]?.nodeId)).toEqual(["a", "b", "c"]);
  });

  it("a node without cards for CPU work, then spreads a model's replicas onto GPU nodes", () => {
    // The dev fleet: sim-chat's two CPU replicas once both went to the H100 node.
    const nodes = [
      node("h100", { cards: cards(8) }),
      node("l40s", { cards: cards(4, "L40S", 48, 8.9) }),
      node("cpu", { cards: [] }),
    ];
    const chat = (index: number) =>
      request({ replicaId: `sim-chat/r${index}`, model: "sim-chat", gpu: undefined, gpus: 0 });
    const results = placeReplicas({ nodes, replicas: [] }, [chat(1), chat(2), chat(3)]);
    expect(results.map((result) => result.ok && result.shards[0]?.nodeId)).toEqual([
      "cpu",
      "h100",
      "l40s",
    ]);
  });

  it("a node without cards for CPU work even when it is busier than a GPU node", () => {
    const nodes = [node("gpu", { cards: cards(2) }), node("cpu", { cards: [] })];
    const other = { ...held("judge/r1", "cpu", []), model: "judge" };
    const result = placeReplica(
      { nodes, replicas: [other] },
      request({ replicaId: "chat/r1", model: "chat", gpu: undefined, gpus: 0 }),
    );
    expect(result.ok && result.shards[0]?.nodeId).toBe("cpu");
  });

  it("the smallest class meeting a need, and says which class", () => {
    const nodes = [
      node("big", { cards: cards(2, "H200", 141, 9.0) }),
      node("mid", { cards: cards(2, "L40S", 48, 8.9) }),
      node("old", { cards: cards(2, "T4", 16, 7.5) }),
    ];
    const result = placeReplica(
      { nodes, replicas: [] },
      request({ gpu: { min_compute_capability: 8, min_memory_gb: 24 } }),
    );
    expect(result.ok && [result.shards[0]?.nodeId, result.gpuClass]).toEqual(["mid", "L40S"]);
  });

  it("several nodes of one class for a multi-node replica, or says how many fit", () => {
    const nodes = [
      node("a", { cards: cards(8) }),
      node("b", { cards: cards(8) }),
      node("c", { cards: cards(8, "L40S", 48, 8.9) }),
    ];
    const multi = request({ gpus: 8, nodes: 2 });
    const result = placeReplica({ nodes, replicas: [] }, multi);
    expect(
      result.ok && result.shards.map((shard) => [shard.nodeId, shard.cardIndexes.length]),
    ).toEqual([
      ["a", 8],
      ["b", 8],
    ]);
    const refused = placeReplica({ nodes, replicas: [held("x/r1", "b", [0])] }, multi);
    expect(!refused.ok && refused.summary).toBe(
      'model "qwen-7b" profile "h100": needs 2 nodes and 1 fit (2 without enough free cards)',
    );
  });

  it("without handing one card out twice within a pass", () => {
    const results = placeReplicas({ nodes: [node("n", { cards: cards(2) })], replicas: [] }, [
      request({ replicaId: "a/r1", model: "a" }),
      request({ replicaId: "b/r1", model: "b" }),
      request({ replicaId: "c/r1", model: "c" }),
    ]);
    expect(
      results.map((result) => (result.ok ? result.shards[0]?.cardIndexes : "refused")),
    ).toEqual([[0], [1], "refused"]);
    const third = must(results[2], "the third result");
    expect(!third.ok && third.rejections[0]?.reasons[0]).toBe(
      "needs 1 free H100-80G card, has 0 (card 0 held by a/r1; card 1 held by b/r1)",
    );
  });

  it("refusing cleanly when no nodes are registered", () => {
    const result = placeReplica({ nodes: [], replicas: [] }, request());
    expect(!result.ok && result.summary).toBe(
      'model "qwen-7b" profile "h100": no nodes are registered',
    );
  });
});
