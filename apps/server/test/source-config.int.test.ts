// Sizing from the model's source on the node, end to end: a real server and a real (simulated)
// agent; the model's weights sit beside a config.json no built-in table knows. Once a replica has
// started there, the agent reports the config and the explorer and `models.setGpus` size the
// model by it (a 70B in bf16 needs more than one 80 GB card).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, waitFor } from "@llmgw/testing";
import { rejectionOf, simGpuModel, startFleet, type Fleet } from "./harness";

/** Llama 3.1 70B's published config.json, its architecture fields. */
const LLAMA_70B = {
  architectures: ["LlamaForCausalLM"],
  model_type: "llama",
  hidden_size: 8192,
  intermediate_size: 28_672,
  num_attention_heads: 64,
  num_key_value_heads: 8,
  num_hidden_layers: 80,
  vocab_size: 128_256,
  max_position_embeddings: 131_072,
  torch_dtype: "bfloat16",
};

describe("sizing from the config.json on the node", () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({ agents: [{ name: "it-src-a", profile: "h100x8" }] });
    const dir = (await tempDir("it-src")).path;
    await writeFile(join(dir, "config.json"), JSON.stringify(LLAMA_70B));
    await writeFile(join(dir, "sim.safetensors"), "simulated weights");
    const source = `file://${join(dir, "sim.safetensors")}`;
    await fleet.api.models.add.mutate({ definition: simGpuModel("big-local", source) });
    await fleet.readyReplicas("big-local", 1, 60_000);
  }, 120_000);

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("the explorer plans the catalog model from the config its agent reported", async () => {
    const entry = await waitFor(
      async () => {
        const { models } = await fleet.api.explore.run.mutate({});
        return models.find((m) => m.name === "big-local");
      },
      { what: "big-local in the explorer", timeoutMs: 20_000 },
    );
    expect(entry.origin).toBe("catalog");
    expect(entry.gpu[0]).toMatchObject({ verdict: "fits", cards: 4, tensorParallel: 4 });
  });

  it("models.setGpus refuses one card for 70B of bf16 weights, by the reported config", async () => {
    const refusal = await rejectionOf(
      fleet.api.models.setGpus.mutate({ name: "big-local", gpus: 1 }),
    );
    expect(refusal).toMatch(
      /the weights take 1[34][\d.]* GB and do not fit on 1 card of [\d.]+ GB/,
    );
  });
});
