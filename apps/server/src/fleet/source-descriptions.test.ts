// What agents report of their sources' config.json is untrusted: a model's numbers are kept and
// preferred to the built-in table; anything else is refused, logged, and changes nothing.
import { create } from "@bufbuild/protobuf";
import { describeGguf } from "@llmgw/domain";
import { SourceConfigSchema } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import {
  describeSource,
  MAX_SOURCE_CONFIG_BYTES,
  MAX_SOURCE_CONFIGS_PER_FRAME,
  SourceDescriptions,
} from "./source-descriptions";

// Qwen/Qwen2.5-7B-Instruct's published config.json, its architecture fields.
const QWEN_7B = {
  architectures: ["Qwen2ForCausalLM"],
  model_type: "qwen2",
  hidden_size: 3584,
  intermediate_size: 18_944,
  max_position_embeddings: 32_768,
  num_attention_heads: 28,
  num_hidden_layers: 28,
  num_key_value_heads: 4,
  tie_word_embeddings: false,
  torch_dtype: "bfloat16",
  vocab_size: 152_064,
};

const report = (source: string, configJson: string) =>
  create(SourceConfigSchema, { source, configJson });

function book() {
  const lines: string[] = [];
  const sources = new SourceDescriptions();
  return { sources, lines, log: (line: string) => lines.push(line) };
}

describe("source descriptions from the nodes", () => {
  it("keeps a model's config.json by source and prefers it to the built-in table", () => {
    const { sources, lines, log } = book();
    sources.accept("gpu-1", [report("https://mirror/qwen-7b", JSON.stringify(QWEN_7B))], log);
    expect(lines).toEqual([]);
    expect(describeSource("https://mirror/qwen-7b", sources)).toMatchObject({
      architecture: "qwen2",
      layers: 28,
      kvHeads: 4,
    });
    // A source the built-in table knows and no node reported is still sized from the table.
    expect(describeSource("meta-llama/Llama-3.1-8B-Instruct", sources)?.layers).toBe(32);
    const llama = { ...QWEN_7B, model_type: "llama", num_hidden_layers: 40 };
    sources.accept(
      "gpu-1",
      [report("meta-llama/Llama-3.1-8B-Instruct", JSON.stringify(llama))],
      log,
    );
    expect(describeSource("meta-llama/Llama-3.1-8B-Instruct", sources)?.layers).toBe(40);
    expect(describeSource("nobody/knows", sources)).toBeUndefined();
  });

  it("refuses an oversized config, naming the node, the source and the size", () => {
    const { sources, lines, log } = book();
    const padded = JSON.stringify({ ...QWEN_7B, padding: "x".repeat(MAX_SOURCE_CONFIG_BYTES) });
    sources.accept("gpu-1", [report("https://mirror/big", padded)], log);
    expect(sources.reported("https://mirror/big")).toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(
        /^node gpu-1: config\.json of source "https:\/\/mirror\/big" refused: \d+ bytes, over the 65536/,
      ),
    ]);
  });

  it("refuses what is not JSON or not a model, and keeps the good ones of the same frame", () => {
    const { sources, lines, log } = book();
    sources.accept(
      "gpu-1",
      [
        report("https://mirror/broken", "{not json"),
        report("https://mirror/empty", "{}"),
        report("https://mirror/array", "[1,2,3]"),
        report("https://mirror/negative", JSON.stringify({ ...QWEN_7B, num_hidden_layers: -5 })),
        report("", JSON.stringify(QWEN_7B)),
        report("https://mirror/qwen-7b", JSON.stringify(QWEN_7B)),
      ],
      log,
    );
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/"https:\/\/mirror\/broken" refused: not JSON/);
    expect(lines[4]).toMatch(/refused: the source must be 1 to 2048 characters/);
    for (const source of ["broken", "empty", "array", "negative"])
      expect(sources.reported(`https://mirror/${source}`)).toBeUndefined();
    expect(sources.reported("https://mirror/qwen-7b")?.layers).toBe(28);
  });

  it("refuses a frame's reports past the most one frame may carry", () => {
    const { sources, lines, log } = book();
    const many = Array.from({ length: MAX_SOURCE_CONFIGS_PER_FRAME + 2 }, (_, index) =>
      report(`https://mirror/m${index}`, JSON.stringify(QWEN_7B)),
    );
    sources.accept("gpu-1", many, log);
    expect(lines).toHaveLength(2);
    expect(sources.reported(`https://mirror/m${MAX_SOURCE_CONFIGS_PER_FRAME}`)).toBeUndefined();
    expect(sources.reported("https://mirror/m0")).toBeDefined();
  });

  it("keeps the description a node made of a GGUF header, and refuses a forged one", () => {
    const { sources, lines, log } = book();
    const made = describeGguf({
      metadata: {
        "general.architecture": "llama",
        "llama.block_count": 2,
        "llama.embedding_length": 64,
        "llama.attention.head_count": 8,
        "llama.attention.head_count_kv": 2,
      },
      tensorInfos: [{ name: "token_embd.weight", shape: [64n, 100n], dtype: 1 }],
    });
    if (!made.ok) throw new Error(made.errors.join("; "));
    const gguf = (source: string, description: unknown) =>
      create(SourceConfigSchema, { source, descriptionJson: JSON.stringify(description) });
    // A node claiming a billion-layer model, to have every replica refused or sized absurdly.
    const forged = { ...made.description, layers: 1_000_000_000 };
    sources.accept("cpu-1", [gguf("file:///m/tiny.gguf", made.description)], log);
    sources.accept("cpu-2", [gguf("file:///m/forged.gguf", forged)], log);
    expect(describeSource("file:///m/tiny.gguf", sources)).toEqual(made.description);
    expect(describeSource("file:///m/forged.gguf", sources)).toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(
        /^node cpu-2: GGUF description of source "file:\/\/\/m\/forged\.gguf" refused: layers: /,
      ),
    ]);
  });
});
