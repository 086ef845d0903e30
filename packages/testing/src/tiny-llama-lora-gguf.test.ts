import { gguf } from "@huggingface/gguf";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./temp-dir.ts";
import { TINY_LLAMA } from "./tiny-llama-gguf.ts";
import { TINY_LORA, tinyLlamaLoraGguf } from "./tiny-llama-lora-gguf.ts";

describe("the tiny llama LoRA GGUF", () => {
  it("parses back as a llama LoRA adapter with the pairs llama-adapter.cpp checks", async () => {
    const file = join((await tempDir("lora-gguf")).path, "adapter.gguf");
    writeFileSync(file, tinyLlamaLoraGguf());
    const parsed = await gguf(file, { allowLocalFile: true });
    const metadata = new Map<string, unknown>(Object.entries(parsed.metadata));
    expect(metadata.get("general.architecture")).toBe("llama");
    expect(metadata.get("general.type")).toBe("adapter");
    expect(metadata.get("adapter.type")).toBe("lora");
    expect(metadata.get("adapter.lora.alpha")).toBe(TINY_LORA.alpha);
    const shape = (name: string) => parsed.tensorInfos.find((t) => t.name === name)?.shape;
    const n = BigInt(TINY_LLAMA.embeddingLength);
    const r = BigInt(TINY_LORA.rank);
    // W is [in, out] in ggml order: lora_a is [in, r], lora_b [r, out].
    expect(shape("blk.0.attn_q.weight.lora_a")).toEqual([n, r]);
    expect(shape("blk.0.attn_q.weight.lora_b")).toEqual([r, n]);
    expect(shape("output.weight.lora_b")?.[0]).toBe(r);
    expect(parsed.tensorInfos).toHaveLength(2 * (2 * TINY_LLAMA.blockCount + 1));
  });

  it("is the same bytes on every call (seeded weights)", () => {
    expect(tinyLlamaLoraGguf().equals(tinyLlamaLoraGguf())).toBe(true);
  });
});
