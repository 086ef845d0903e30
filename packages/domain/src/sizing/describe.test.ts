import { describe, expect, it } from "vitest";
import { describeConfig } from "./describe";
import llama70b from "./fixtures/llama-3.1-70b.config.json";
import llama8b from "./fixtures/llama-3.1-8b.config.json";
import llamaVision from "./fixtures/llama-3.2-11b-vision.config.json";
import qwen3Moe from "./fixtures/qwen3-235b-a22b.config.json";
import type { ModelDescription } from "./types";

function described(config: unknown): ModelDescription {
  const result = describeConfig(config);
  if (!result.ok) throw new Error(result.errors.join("; "));
  return result.description;
}

function errorsOf(config: unknown): string[] {
  const result = describeConfig(config);
  return result.ok ? [] : result.errors;
}

/** Within `percent` of the published figure. */
function expectNear(actual: number, published: number, percent: number): void {
  expect(Math.abs(actual - published) / published).toBeLessThan(percent / 100);
}

describe("describeConfig on published configs", () => {
  it("counts Llama-3.1-8B at its published 8.03B with grouped-query attention", () => {
    const model = described(llama8b);
    expect(model).toMatchObject({ layers: 32, kvHeads: 8, headDim: 128, dtype: "bfloat16" });
    expect(model.contextTokensTrained).toBe(131072);
    expectNear(model.parameters.total, 8.03e9, 1);
    expect(model.parameters.active).toBe(model.parameters.total);
    expect(model.parameters.isApproximate).toBe(false);
  });

  it("counts Llama-3.1-70B at its published 70.6B", () => {
    const model = described(llama70b);
    expect(model).toMatchObject({ layers: 80, attentionHeads: 64, kvHeads: 8, headDim: 128 });
    expectNear(model.parameters.total, 70.6e9, 1);
  });

  it("counts Qwen3-235B-A22B's experts: 235B in all, 22B read per token", () => {
    const model = described(qwen3Moe);
    expect(model.experts).toMatchObject({ count: 128, perToken: 8, intermediateSize: 1536 });
    // head_dim is explicit: 64 heads of 128 are wider than the 4096 hidden size.
    expect(model.headDim).toBe(128);
    expect(model.kvHeads).toBe(4);
    expectNear(model.parameters.total, 235e9, 2);
    expectNear(model.parameters.active, 22e9, 3);
  });

  it("reads Llama-3.2-11B-Vision through text_config and estimates its vision tower", () => {
    const model = described(llamaVision);
    expect(model).toMatchObject({ architecture: "mllama_text_model", layers: 40, kvHeads: 8 });
    expect(model.parameters.vision).toBeGreaterThan(0.5e9);
    expect(model.parameters.isApproximate).toBe(true);
    expectNear(model.parameters.total, 10.6e9, 3);
    expect(model.notes.map((n) => n.code)).toContain("sizing.vision_estimated");
  });
});

describe("describeConfig on what a file may hold", () => {
  it("names the missing field", () => {
    const { num_hidden_layers: _dropped, ...withoutLayers } = llama8b;
    expect(errorsOf(withoutLayers)).toEqual([
      "config.json has no num_hidden_layers (the number of layers); is this a model's config.json?",
    ]);
  });

  it("names a field of the wrong type with what to write", () => {
    expect(errorsOf({ ...llama8b, hidden_size: "4096" })).toEqual([
      'hidden_size is "4096"; write hidden_size (the model\'s width) as a whole number',
    ]);
  });

  it("refuses something that is not a map", () => {
    expect(errorsOf([1, 2])).toEqual(["a config.json is a map of fields ({…})"]);
  });

  it("names a field zod describes generically", () => {
    expect(errorsOf({ ...llama8b, tie_word_embeddings: "yes" })).toEqual([
      'tie_word_embeddings: "yes" is not true or false; write true or false',
    ]);
  });

  it("takes head_dim as hidden size over heads and KV heads as heads when the file omits them", () => {
    const { num_key_value_heads: _kv, ...old } = llama8b;
    const model = described(old);
    expect(model.kvHeads).toBe(32);
    expect(model.headDim).toBe(128);
  });

  it("counts a tied head once", () => {
    const untied = described(llama8b).parameters.total;
    const tied = described({ ...llama8b, tie_word_embeddings: true }).parameters.total;
    expect(untied - tied).toBe(128256 * 4096);
  });

  it("reads Mixtral's experts from num_local_experts and intermediate_size", () => {
    const mixtral = { ...llama8b, num_local_experts: 8, num_experts_per_tok: 2, vocab_size: 32000 };
    const model = described(mixtral);
    expect(model.experts).toMatchObject({ count: 8, perToken: 2, intermediateSize: 14336 });
    expectNear(model.parameters.total, 46.7e9, 2);
    expectNear(model.parameters.active, 12.9e9, 2);
  });

  it("reads DeepSeek's shared experts and leading dense layers", () => {
    const model = described({
      ...qwen3Moe,
      num_experts: null,
      n_routed_experts: 64,
      n_shared_experts: 2,
      first_k_dense_replace: 1,
    });
    expect(model.experts).toMatchObject({ count: 64, sharedCount: 2, denseLayers: 1 });
  });

  it("refuses a mixture of experts without an expert width", () => {
    const { moe_intermediate_size: _m, intermediate_size: _i, ...bare } = qwen3Moe;
    expect(errorsOf(bare)).toEqual([
      "config.json has no moe_intermediate_size (the width of one expert)",
    ]);
  });

  it("assumes bfloat16 and says so when the file names no dtype", () => {
    const { torch_dtype: _d, ...noDtype } = llama8b;
    const model = described(noDtype);
    expect(model.dtype).toBe("bfloat16");
    expect(model.notes.map((n) => n.code)).toEqual(["sizing.dtype_assumed"]);
  });

  it("reads the newer `dtype` field and refuses an unknown one by name", () => {
    const { torch_dtype: _d, ...rest } = llama8b;
    expect(described({ ...rest, dtype: "float16" }).dtype).toBe("float16");
    expect(errorsOf({ ...rest, dtype: "int3" })).toEqual([
      'torch_dtype "int3" is not float32, bfloat16 or float16',
    ]);
  });
});

describe("describeConfig on quantization_config", () => {
  const cases: [string, unknown, string][] = [
    ["fp8", { quant_method: "fp8", activation_scheme: "dynamic" }, "fp8"],
    ["awq", { quant_method: "awq", bits: 4, group_size: 128 }, "int4"],
    ["gptq 8-bit", { quant_method: "gptq", bits: 8 }, "int8"],
    ["bitsandbytes 4-bit", { quant_method: "bitsandbytes", load_in_4bit: true }, "nf4"],
    [
      "compressed-tensors fp8",
      {
        quant_method: "compressed-tensors",
        config_groups: { g0: { weights: { num_bits: 8, type: "float" } } },
      },
      "fp8",
    ],
  ];
  it.each(cases)("reads %s", (_name, quantization_config, format) => {
    expect(described({ ...llama8b, quantization_config }).quantization?.format).toBe(format);
  });

  it("refuses a method it does not know, by name", () => {
    const errors = errorsOf({ ...llama8b, quantization_config: { quant_method: "hqq" } });
    expect(errors[0]).toContain('quant_method "hqq" is not one sizing knows');
  });

  it("refuses gptq with an odd bit width", () => {
    const errors = errorsOf({ ...llama8b, quantization_config: { quant_method: "gptq", bits: 3 } });
    expect(errors[0]).toContain("gptq with bits 3 is not sized");
  });
});
