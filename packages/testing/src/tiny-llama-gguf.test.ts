import { gguf } from "@huggingface/gguf";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeGguf } from "./gguf-writer.ts";
import { tempDir } from "./temp-dir.ts";
import { TINY_LLAMA, tinyLlamaGguf } from "./tiny-llama-gguf.ts";

async function parseBack(bytes: Buffer) {
  const dir = await tempDir("gguf");
  const file = join(dir.path, "model.gguf");
  writeFileSync(file, bytes);
  return gguf(file, { allowLocalFile: true });
}

describe("the tiny llama GGUF", () => {
  it("parses back with @huggingface/gguf as a llama model with its shape and tokenizer", async () => {
    const parsed = await parseBack(tinyLlamaGguf());
    const { tensorInfos } = parsed;
    // Read as plain records: the library's types know only the keys of models it has seen.
    const metadata = new Map<string, unknown>(Object.entries(parsed.metadata));
    expect(metadata.get("version")).toBe(3);
    expect(metadata.get("general.architecture")).toBe("llama");
    expect(metadata.get("llama.block_count")).toBe(TINY_LLAMA.blockCount);
    expect(metadata.get("llama.embedding_length")).toBe(TINY_LLAMA.embeddingLength);
    expect(metadata.get("tokenizer.ggml.model")).toBe("llama");
    const tokens = metadata.get("tokenizer.ggml.tokens") as string[];
    expect(tokens.slice(0, 4)).toEqual(["<unk>", "<s>", "</s>", "<0x00>"]);
    expect(tokens).toContain("<0xFF>");
    expect((metadata.get("tokenizer.ggml.scores") as number[]).length).toBe(tokens.length);
    const embedding = tensorInfos.find((t) => t.name === "token_embd.weight");
    expect(embedding?.shape).toEqual([BigInt(TINY_LLAMA.embeddingLength), BigInt(tokens.length)]);
    expect(tensorInfos.filter((t) => t.name.startsWith("blk.1."))).toHaveLength(9);
  });

  it("takes a larger shape, for a model big enough to be memory-bound", async () => {
    const shape = { embeddingLength: 128, blockCount: 3, feedForwardLength: 256, headCount: 8 };
    const parsed = await parseBack(tinyLlamaGguf(shape));
    const metadata = new Map<string, unknown>(Object.entries(parsed.metadata));
    expect(metadata.get("llama.block_count")).toBe(3);
    expect(metadata.get("llama.embedding_length")).toBe(128);
    expect(metadata.get("llama.attention.head_count")).toBe(8);
    expect(metadata.get("llama.rope.dimension_count")).toBe(16);
    const gate = parsed.tensorInfos.find((t) => t.name === "blk.2.ffn_gate.weight");
    expect(gate?.shape).toEqual([128n, 256n]);
  });

  it("is the same bytes on every call (seeded weights)", () => {
    expect(tinyLlamaGguf().equals(tinyLlamaGguf())).toBe(true);
  });

  it("places every tensor's data at a 32-byte aligned offset", async () => {
    const { tensorInfos, tensorDataOffset } = await parseBack(tinyLlamaGguf());
    expect(Number(tensorDataOffset) % 32).toBe(0);
    for (const info of tensorInfos) expect(Number(info.offset) % 32).toBe(0);
  });

  it("refuses a tensor whose data does not fill its dimensions", () => {
    expect(() =>
      writeGguf(new Map(), [{ name: "w", dims: [2, 3], data: new Float32Array(5) }]),
    ).toThrow("tensor w: dims 2x3 hold 6 values, data has 5");
  });
});
