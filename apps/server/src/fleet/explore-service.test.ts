import { ServiceError } from "@llmgw/api";
import type { ExploreNode } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import { createExploreService, type ExploreFleet } from "./explore-service";

const LLAMA_8B_SOURCE = "meta-llama/Llama-3.1-8B-Instruct";

function fakeFleet(
  nodes: ExploreNode[],
  catalogModels: { name: string; source: string }[] = [],
): ExploreFleet {
  return { nodes: () => nodes, catalogModels: () => catalogModels };
}

const h100Node: ExploreNode = {
  name: "gpu-1",
  freeCards: [
    { gpuClass: "H100", memoryGb: 85.52 },
    { gpuClass: "H100", memoryGb: 85.52 },
  ],
  cardsTotal: 2,
  memoryGbTotal: 512,
};
const cpuNode: ExploreNode = {
  name: "cpu-1",
  freeCards: [],
  cardsTotal: 0,
  memoryGbTotal: 64,
  memoryReadBytesPerSecond: 40e9,
};

/** A tiny dense model: 4 layers of width 256, 4 heads, 2 KV heads. */
const tinyConfig = {
  model_type: "llama",
  hidden_size: 256,
  intermediate_size: 1024,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  num_hidden_layers: 4,
  vocab_size: 32_000,
  max_position_embeddings: 4096,
  torch_dtype: "bfloat16",
};

async function refusalOf(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe("explore service", () => {
  it("sizes the preset whose architecture it knows, and a catalog model from the same source", async () => {
    const service = createExploreService(
      fakeFleet(
        [h100Node],
        [
          { name: "chat-8b", source: LLAMA_8B_SOURCE },
          { name: "x", source: "y/z" },
        ],
      ),
    );
    const { models } = await service.run([]);
    expect(models.map((m) => [m.name, m.origin])).toEqual([
      ["llama-3.1-8b-instruct", "preset"],
      ["chat-8b", "catalog"],
    ]);
    expect(models[0]?.gpu[0]).toMatchObject({ gpuClass: "H100", verdict: "fits", cards: 1 });
  });

  it("plans a config.json given on GPU and CPU nodes alike", async () => {
    const service = createExploreService(fakeFleet([h100Node, cpuNode]));
    const { models } = await service.run([{ name: "tiny", json: JSON.stringify(tinyConfig) }]);
    const tiny = models.find((m) => m.name === "tiny");
    expect(tiny).toMatchObject({ origin: "config", architecture: "llama", fitsNow: true });
    expect(tiny?.gpu[0]).toMatchObject({ verdict: "fits", contextTokens: 4096 });
    expect(tiny?.cpu[0]?.node).toBe("cpu-1");
    expect(tiny?.cpu[0]?.tokensPerSecond).toBeGreaterThan(100);
  });

  it("refuses a config that is not JSON, naming it", async () => {
    const service = createExploreService(fakeFleet([h100Node]));
    const error = await refusalOf(service.run([{ name: "broken", json: "{ not json" }]));
    expect(error.kind).toBe("invalid");
    expect(error.refusal.code).toBe("explore.config_refused");
    expect(error.refusal.params.name).toBe("broken");
    expect(error.message).toMatch(/^config "broken" cannot be sized: it is not JSON/);
  });

  it("refuses a config missing a field sizing needs, naming the field", async () => {
    const service = createExploreService(fakeFleet([h100Node]));
    const { num_hidden_layers: _dropped, ...withoutLayers } = tinyConfig;
    const error = await refusalOf(
      service.run([{ name: "short", json: JSON.stringify(withoutLayers) }]),
    );
    expect(error.refusal.code).toBe("explore.config_refused");
    expect(String(error.refusal.params.reason)).toMatch(/num_hidden_layers/);
  });

  it("refuses a config that is JSON but not an object", async () => {
    const service = createExploreService(fakeFleet([h100Node]));
    const error = await refusalOf(service.run([{ name: "list", json: "[1, 2]" }]));
    expect(error.refusal.params.name).toBe("list");
  });

  it("answers a config nested a hundred thousand levels deep with a refusal, not a crash", async () => {
    const service = createExploreService(fakeFleet([h100Node]));
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const asArray = await refusalOf(service.run([{ name: "deep", json: deep }]));
    expect(asArray.refusal.code).toBe("explore.config_refused");
    const inField = JSON.stringify({ ...tinyConfig, text_config: "@" }).replace('"@"', deep);
    const asField = await refusalOf(service.run([{ name: "deep-field", json: inField }]));
    expect(asField.refusal.params.name).toBe("deep-field");
  });
});
