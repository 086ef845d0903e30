// A node sends the description it made of a GGUF header; the control plane takes it only when it
// has the shape and bounds of a real model. Each refusal is the frame a broken or hostile node sends.
import { describe, expect, it } from "vitest";
import { parseGgufDescription } from "./description-schema";
import { describeGguf } from "./gguf";

function made() {
  const result = describeGguf({
    metadata: {
      "general.architecture": "llama",
      "llama.block_count": 2,
      "llama.embedding_length": 64,
      "llama.attention.head_count": 8,
      "llama.attention.head_count_kv": 2,
      "llama.context_length": 4096,
      "llama.feed_forward_length": 128,
    },
    tensorInfos: [
      { name: "token_embd.weight", shape: [64n, 100n], dtype: 1 },
      { name: "blk.0.attn_q.weight", shape: [64n, 64n], dtype: 1 },
    ],
  });
  if (!result.ok) throw new Error(result.errors.join("; "));
  return result.description;
}

describe("parseGgufDescription", () => {
  it("takes back what describeGguf made, through JSON, unchanged", () => {
    const description = made();
    const parsed = parseGgufDescription(JSON.stringify(description));
    expect(parsed).toEqual({ ok: true, description });
  });

  it("refuses what is not JSON, naming it", () => {
    const parsed = parseGgufDescription("{layers: 2");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors[0]).toMatch(/^not JSON/);
  });

  it("refuses a node claiming a model past every real bound, naming the field", () => {
    const huge = { ...made(), layers: 1e9 };
    const parsed = parseGgufDescription(JSON.stringify(huge));
    expect(!parsed.ok && parsed.errors[0]).toMatch(/^layers: /);
  });

  it("refuses a description that says it came from a config.json, or carries keys of its own", () => {
    expect(parseGgufDescription(JSON.stringify({ ...made(), source: "config.json" })).ok).toBe(
      false,
    );
    const extra = parseGgufDescription(JSON.stringify({ ...made(), __proto__x: 1 }));
    expect(extra.ok).toBe(false);
  });

  it("refuses more active parameters than there are parameters", () => {
    const description = made();
    const inverted = {
      ...description,
      parameters: { ...description.parameters, active: description.parameters.total + 1 },
    };
    expect(parseGgufDescription(JSON.stringify(inverted))).toEqual({
      ok: false,
      errors: ["parameters.active: more than parameters.total"],
    });
  });
});
