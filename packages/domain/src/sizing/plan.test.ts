import { describe, expect, it } from "vitest";
import { describeConfig } from "./describe";
import { validCardCounts } from "./fit";
import llama70b from "./fixtures/llama-3.1-70b.config.json";
import llama8b from "./fixtures/llama-3.1-8b.config.json";
import llamaVision from "./fixtures/llama-3.2-11b-vision.config.json";
import qwen3Moe from "./fixtures/qwen3-235b-a22b.config.json";
import { describeGguf } from "./gguf";
import { ENGINE_OVERHEAD_BYTES, GPU_MEMORY_UTILIZATION } from "./memory";
import { planModel, type PlanOptions } from "./plan";
import type { ModelDescription } from "./types";

// An H100 80GB reports 81,559 MiB, 85.52 GB; the fleet gives card memory in decimal GB.
const H100_80G_GB = 85.52;
const L4_24G_GB = 24.15;

function described(config: unknown): ModelDescription {
  const result = describeConfig(config);
  if (!result.ok) throw new Error(result.errors.join("; "));
  return result.description;
}

function onH100(count: number, more: Omit<PlanOptions, "cards"> = {}): PlanOptions {
  return { cards: { memoryGb: H100_80G_GB, count }, ...more };
}

function codes(plan: { notes: { code: string }[] }): string[] {
  return plan.notes.map((entry) => entry.code);
}

describe("planModel: Llama-3.1-8B", () => {
  const model = described(llama8b);

  it("holds its full 128k context on one 80 GB card, as the arithmetic says", () => {
    const plan = planModel(model, onH100(1));
    // Keys and values × 32 layers × 8 KV heads × 128 × 2 bytes.
    expect(plan.kvBytesPerToken).toBe(2 * 32 * 8 * 128 * 2);
    expect(plan.weightBytes).toBe(model.parameters.total * 2);
    const room =
      H100_80G_GB * 1e9 * GPU_MEMORY_UTILIZATION - ENGINE_OVERHEAD_BYTES - plan.weightBytes;
    // The activation reserve takes between 0.5 and 3 GB of that room.
    expect(plan.kvTokensFit).toBeLessThan((room - 0.5e9) / plan.kvBytesPerToken);
    expect(plan.kvTokensFit).toBeGreaterThan((room - 3e9) / plan.kvBytesPerToken);
    expect(plan.kvTokensFit).toBeGreaterThan(131072);
    expect(plan).toMatchObject({
      fits: true,
      contextTokens: 131072,
      tensorParallel: 1,
      expertParallel: false,
    });
    expect(codes(plan)).toEqual([
      "sizing.weights",
      "sizing.reserve",
      "sizing.kv_cache",
      "sizing.context_fits",
    ]);
  });

  it("shrinks the context on one 24 GB card, and says so and what would hold it all", () => {
    const plan = planModel(model, { cards: { memoryGb: L4_24G_GB, count: 1 } });
    expect(plan.fits).toBe(true);
    expect(plan.contextTokens).toBeLessThan(131072);
    expect(plan.contextTokens).toBeLessThanOrEqual(plan.kvTokensFit);
    expect(plan.contextTokens % 256).toBe(0);
    const shrunk = plan.notes.at(-1);
    expect(shrunk).toMatchObject({
      code: "sizing.context_shrunk",
      params: {
        askedTokens: 131072,
        grantedTokens: plan.contextTokens,
        slots: 1,
        cardsForFullContext: 2,
      },
    });
    expect(shrunk?.text).toContain("shrunk from 131,072 to");
  });

  it("shares the cache between slots", () => {
    const one = planModel(model, onH100(1));
    const four = planModel(model, onH100(1, { slots: 4 }));
    expect(four.contextTokens).toBeLessThan(131072);
    expect(four.contextTokens * 4).toBeLessThanOrEqual(one.kvTokensFit);
  });

  it("holds twice the tokens with an fp8 cache", () => {
    const auto = planModel(model, onH100(1));
    const fp8 = planModel(model, onH100(1, { kvCacheDtype: "fp8" }));
    expect(fp8.kvBytesPerToken).toBe(auto.kvBytesPerToken / 2);
    expect(Math.abs(fp8.kvTokensFit - 2 * auto.kvTokensFit)).toBeLessThanOrEqual(32);
  });

  it("sizes an AWQ checkpoint at about 5.7 GB: 4-bit layers, 16-bit embedding and head", () => {
    const awq = described({ ...llama8b, quantization_config: { quant_method: "awq", bits: 4 } });
    const plan = planModel(awq, onH100(1));
    expect(plan.weightBytes / 1e9).toBeGreaterThan(5.5);
    expect(plan.weightBytes / 1e9).toBeLessThan(6);
  });

  it("refuses a context past the trained one", () => {
    const plan = planModel(model, onH100(1, { contextTokens: 200000 }));
    expect(plan.fits).toBe(false);
    expect(plan.refusal).toMatchObject({
      code: "sizing.context_past_trained",
      params: { askedTokens: 200000, trainedTokens: 131072 },
    });
  });

  it("refuses options it cannot compute with, naming the field", () => {
    const plan = planModel(model, { cards: { memoryGb: 80, count: 0 } });
    expect(plan.fits).toBe(false);
    expect(plan.refusal?.code).toBe("sizing.bad_input");
    expect(plan.refusal?.text).toContain("cards.count");
    const missing = planModel(model, { cards: { count: 1 } } as unknown as PlanOptions);
    expect(missing.refusal?.text).toBe("cards.memoryGb: this field is required; write a number");
  });
});

describe("planModel: Llama-3.1-70B on H100-80G", () => {
  const model = described(llama70b);

  it("refuses one card, naming the two that hold the weights", () => {
    const plan = planModel(model, onH100(1));
    expect(plan.fits).toBe(false);
    expect(plan.refusal).toMatchObject({
      code: "sizing.weights_do_not_fit",
      params: { weightGb: 141.1, cards: 1, cardsNeeded: 2 },
    });
    expect(plan.refusal?.text).toContain("2 cards of 85.52 GB would hold them");
  });

  it("fits on 2, 4 or 8 cards, the splits of its 8 KV heads", () => {
    const fitting = validCardCounts(model, 8).filter(
      (count) => planModel(model, onH100(count)).fits,
    );
    expect(fitting).toEqual([2, 4, 8]);
  });

  it("on two cards holds the weights with a shrunk context; four hold the full 128k", () => {
    const two = planModel(model, onH100(2));
    expect(two).toMatchObject({
      fits: true,
      tensorParallel: 2,
      cardsForWeights: 2,
      cardsForFullContext: 4,
    });
    expect(two.contextTokens).toBeGreaterThan(8192);
    expect(two.contextTokens).toBeLessThan(131072);
    expect(planModel(model, onH100(4)).contextTokens).toBe(131072);
  });

  it("refuses three cards, which cannot split 64 heads, naming the counts that can", () => {
    const plan = planModel(model, onH100(3));
    expect(plan.refusal).toMatchObject({
      code: "sizing.split_invalid",
      params: { validCounts: "1, 2, 4, 8" },
    });
  });
});

describe("planModel: Qwen3-235B-A22B (128 experts, 4 KV heads)", () => {
  const model = described(qwen3Moe);

  it("needs 8 cards at bf16, with expert parallel", () => {
    expect(planModel(model, onH100(4)).refusal?.params).toMatchObject({ cardsNeeded: 8 });
    const plan = planModel(model, onH100(8));
    expect(plan).toMatchObject({
      fits: true,
      tensorParallel: 8,
      expertParallel: true,
      cardsForWeights: 8,
    });
    expect(plan.contextTokens).toBe(40960);
    expect(plan.notes.find((n) => n.code === "sizing.expert_parallel")?.params).toMatchObject({
      experts: 128,
      expertsPerCard: 16,
    });
  });

  it("copies its 4 KV heads when the cards outnumber them", () => {
    const plan = planModel(model, onH100(16));
    expect(plan.kvBytesPerTokenPerCard).toBe(2 * 94 * 1 * 128 * 2);
    expect(plan.notes.find((n) => n.code === "sizing.tensor_parallel")?.text).toContain(
      "each of its 4 KV heads copied to 4 cards",
    );
  });

  it("refuses 6 cards: neither a divisor nor a multiple of 4 KV heads", () => {
    expect(planModel(model, onH100(6)).refusal?.code).toBe("sizing.split_invalid");
  });

  it("refuses cards too small at any count, saying no count would do", () => {
    const plan = planModel(model, { cards: { memoryGb: 4, count: 8 } });
    expect(plan.refusal?.code).toBe("sizing.weights_do_not_fit");
    expect(plan.refusal?.text).toContain("no count of these cards would hold them");
    expect(plan.cardsForWeights).toBeUndefined();
  });
});

describe("planModel: other descriptions", () => {
  it("plans Llama-3.2-11B-Vision from its text_config, its vision tower in the weights", () => {
    const model = described(llamaVision);
    const plan = planModel(model, onH100(1));
    expect(plan.kvBytesPerToken).toBe(2 * 40 * 8 * 128 * 2);
    expect(plan.weightBytes).toBe(model.parameters.total * 2);
    expect(plan.fits).toBe(true);
    expect(codes(plan)[0]).toBe("sizing.vision_estimated");
  });

  it("splits a GGUF's layers, as llama.cpp does, with no tensor or expert parallel", () => {
    const result = describeGguf({
      metadata: {
        "general.architecture": "llama",
        "llama.block_count": 4,
        "llama.embedding_length": 64,
        "llama.attention.head_count": 4,
        "llama.context_length": 4096,
      },
      tensorInfos: [{ name: "token_embd.weight", shape: [64n, 1000n], dtype: 8 }],
    });
    if (!result.ok) throw new Error(result.errors.join("; "));
    const plan = planModel(result.description, { cards: { memoryGb: 24, count: 3 } });
    expect(plan).toMatchObject({
      fits: true,
      split: "layer",
      tensorParallel: 1,
      expertParallel: false,
    });
    expect(plan.weightBytes).toBe((64 * 1000 * 34) / 32);
    expect(codes(plan)).toContain("sizing.layer_split");
  });
});

describe("planModel: a context too short to be of use", () => {
  it("refuses 16 slots of 70B on two cards, naming the largest context and the cards that would do", () => {
    const model = described(llama70b);
    const two = planModel(model, onH100(2));
    const plan = planModel(model, onH100(2, { slots: 16 }));
    expect(plan.fits).toBe(false);
    expect(plan.refusal).toMatchObject({
      code: "sizing.no_room_for_context",
      params: { largestTokens: Math.floor(two.kvTokensFit / 16), slots: 16, cardsNeeded: 4 },
    });
    expect(plan.refusal?.text).toContain("4 cards would hold it");
  });
});
