import { describe, expect, it } from "vitest";
import { parseModelDefinition } from "../catalog/model-definition";
import { must } from "../must";
import { explainPlacement, formatExplanation } from "./explain";
import { placementRequestFor } from "./request";
import { cards, node } from "./test-fixtures";

describe("explainPlacement", () => {
  const parsed = parseModelDefinition({
    name: "qwen-7b",
    source: "Qwen/Qwen2.5-7B-Instruct",
    size_gb: 15,
    profiles: [
      { name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 2, tensor_parallel: 2, memory_gb: 16 },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  const model = parsed.model;
  const profile = must(model.profiles[0], "the h100 profile");

  it("lists every node with all its reasons, and the choice", () => {
    const nodes = [
      node("node-1", { isReachable: false, cards: cards(2, "L40S", 48, 8.9) }),
      node("node-3", { cards: cards(3) }),
      node("node-7", { cards: cards(4) }),
      node("node-8", { cards: cards(4) }),
    ];
    const replicas = [
      {
        id: "llama/r2",
        model: "llama",
        shards: [{ nodeId: "node-3", cardIndexes: [0, 2] }],
        memoryGb: 0,
        cpuCores: 0,
      },
    ];
    const explanation = explainPlacement(
      { nodes, replicas },
      placementRequestFor(model, profile, "qwen-7b/r1"),
    );
    expect(formatExplanation(explanation)).toEqual([
      'model "qwen-7b" profile "h100": a new replica would go to node-7',
      "node-1: is unreachable; nothing is placed on it until it answers again; has no H100-80G cards (has 2 L40S)",
      "node-3: needs 2 free H100-80G cards, has 1 (cards 0,2 held by llama/r2)",
      "node-7: chosen (cards 0,1)",
      "node-8: fits, not chosen",
    ]);
  });

  it("says why a CPU replica goes to a node without cards, and away from its own model", () => {
    const chat = parseModelDefinition({
      name: "sim-chat",
      source: "file:///sim",
      profiles: [{ name: "sim", engine: "sim", memory_gb: 1 }],
    });
    if (!chat.ok) throw new Error(chat.errors.join("; "));
    const nodes = [node("gpu-1"), node("cpu-1", { cards: [] }), node("cpu-2", { cards: [] })];
    const replicas = [
      {
        id: "sim-chat/r1",
        model: "sim-chat",
        shards: [{ nodeId: "cpu-1", cardIndexes: [] }],
        memoryGb: 1,
        cpuCores: 1,
      },
    ];
    const request = placementRequestFor(
      chat.model,
      must(chat.model.profiles[0], "the chat profile"),
      "sim-chat/r2",
    );
    expect(formatExplanation(explainPlacement({ nodes, replicas }, request)).slice(1)).toEqual([
      "gpu-1: fits, not chosen (has GPUs; CPU replicas go to nodes without cards first)",
      "cpu-1: fits, not chosen (holds 1 replica of sim-chat already; replicas spread across nodes; has no GPUs, where CPU replicas go first)",
      "cpu-2: chosen (has no GPUs, where CPU replicas go first)",
    ]);
  });

  it("carries the summary of a refusal", () => {
    const explanation = explainPlacement(
      { nodes: [node("n", { cards: [] })], replicas: [] },
      placementRequestFor(model, profile, "qwen-7b/r1"),
    );
    expect(explanation.summary).toMatch(
      /no node can take a replica \(1 without enough free cards\)/,
    );
    expect(explanation.nodes[0]?.fits).toBe(false);
  });
});

describe("placementRequestFor", () => {
  it("carries a CPU profile without a gpu and with its selector", () => {
    const parsed = parseModelDefinition({
      name: "judge",
      source: "/m/j.gguf",
      profiles: [
        {
          name: "cpu",
          engine: "llamacpp",
          cpu_cores: 2,
          memory_gb: 2,
          node_selector: { labels: { "llmgw.role": "judge" } },
        },
      ],
    });
    if (!parsed.ok) throw new Error(parsed.errors.join("; "));
    const request = placementRequestFor(
      parsed.model,
      must(parsed.model.profiles[0], "the judge profile"),
      "judge/r1",
    );
    expect(request).not.toHaveProperty("gpu");
    expect(request).toMatchObject({
      gpus: 0,
      cpuCores: 2,
      memoryGb: 2,
      nodeSelector: { "llmgw.role": "judge" },
    });
  });
});
