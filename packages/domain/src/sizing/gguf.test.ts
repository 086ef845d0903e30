import { describe, expect, it } from "vitest";
import { describeGguf, type GgufHeader } from "./gguf";

const MOE_METADATA = {
  "general.architecture": "qwen3moe",
  "general.file_type": 15,
  "qwen3moe.block_count": 2,
  "qwen3moe.embedding_length": 64,
  "qwen3moe.attention.head_count": 8,
  "qwen3moe.attention.head_count_kv": 2,
  "qwen3moe.attention.key_length": 16,
  "qwen3moe.context_length": 40960n,
  "qwen3moe.expert_count": 8,
  "qwen3moe.expert_used_count": 2,
  "qwen3moe.expert_feed_forward_length": 32,
};

function moeHeader(tensorType = 0): GgufHeader {
  const experts = (i: number) =>
    ["gate", "up", "down"].map((part) => ({
      name: `blk.${i}.ffn_${part}_exps.weight`,
      shape: [64n, 32n, 8n],
      dtype: tensorType,
    }));
  return {
    metadata: MOE_METADATA,
    tensorInfos: [
      { name: "token_embd.weight", shape: [64n, 100n], dtype: 0 },
      { name: "blk.0.attn_q.weight", shape: [64n, 128n], dtype: 0 },
      ...experts(0),
      ...experts(1),
    ],
  };
}

describe("describeGguf", () => {
  it("reads experts and counts only the chosen ones as active", () => {
    const result = describeGguf(moeHeader());
    if (!result.ok) throw new Error(result.errors.join("; "));
    const model = result.description;
    const expertWeights = 2 * 3 * 64 * 32 * 8;
    const rest = 64 * 100 + 64 * 128;
    expect(model.experts).toMatchObject({ count: 8, perToken: 2, intermediateSize: 32 });
    expect(model.parameters.total).toBe(rest + expertWeights);
    expect(model.parameters.active).toBe(rest + expertWeights / 4);
    expect(model.contextTokensTrained).toBe(40960);
    expect(model.ggufFileType).toBe("Q4_K_M");
    // No output.weight tensor: the head shares the embedding's weights.
    expect(model.tiedEmbeddings).toBe(true);
    expect(model.vocabSize).toBe(100);
  });

  it("refuses a tensor type it cannot size, naming the tensor", () => {
    expect(describeGguf(moeHeader(99))).toEqual({
      ok: false,
      errors: ["tensor blk.0.ffn_gate_exps.weight has ggml type 99, which sizing does not know"],
    });
  });

  it("reads a per-layer list as its largest entry, however long the list", () => {
    const perLayer = Array.from({ length: 500_000 }, (_, i) => (i === 7 ? 8 : 2));
    const result = describeGguf({
      ...moeHeader(),
      metadata: { ...MOE_METADATA, "qwen3moe.attention.head_count_kv": perLayer },
    });
    expect(result.ok && result.description.kvHeads).toBe(8);
  });

  it("refuses a header without an architecture", () => {
    expect(describeGguf({ metadata: {}, tensorInfos: [] })).toEqual({
      ok: false,
      errors: ["the GGUF header has no general.architecture"],
    });
  });
});
