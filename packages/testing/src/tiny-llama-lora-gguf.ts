// A LoRA adapter for the tiny llama GGUF (tiny-llama-gguf.ts), made here the way llama.cpp's
// convert_lora_to_gguf.py lays one out, so the real llama.cpp tests load a real adapter without a
// download: `general.type=adapter`, `adapter.type=lora`, `adapter.lora.alpha`, and for each adapted
// base tensor W (ggml shape [in, out]) a pair `W.lora_a` [in, r] and `W.lora_b` [r, out], which
// llama-adapter.cpp checks against the base model. Its weights are seeded noise, large enough that
// applying it changes what the tiny model answers. Made by this project, under its licence.
import { seededRandom } from "@llmgw/domain/seeded-random";
import { writeGguf, type GgufTensor, type GgufValue } from "./gguf-writer.ts";
import { TINY_LLAMA, tinyLlamaVocabSize } from "./tiny-llama-gguf.ts";

export const TINY_LORA = { rank: 4, alpha: 8, seed: 20_261_203 } as const;

/** The base tensors adapted: each layer's attention query and value, and the output head. */
function adaptedTensors(): { name: string; inputs: number; outputs: number }[] {
  const n = TINY_LLAMA.embeddingLength;
  const layers = Array.from({ length: TINY_LLAMA.blockCount }, (_, i) => [
    { name: `blk.${i}.attn_q.weight`, inputs: n, outputs: n },
    { name: `blk.${i}.attn_v.weight`, inputs: n, outputs: n },
  ]);
  return [...layers.flat(), { name: "output.weight", inputs: n, outputs: tinyLlamaVocabSize() }];
}

/** The adapter's GGUF file, byte for byte the same on every call. */
export function tinyLlamaLoraGguf(): Buffer {
  const random = seededRandom(TINY_LORA.seed);
  const noise = (name: string, dims: number[], scale: number): GgufTensor => {
    const data = new Float32Array(dims.reduce((product, dim) => product * dim, 1));
    for (let i = 0; i < data.length; i += 1) data[i] = (random() - 0.5) * scale;
    return { name, dims, data };
  };
  const r = TINY_LORA.rank;
  const tensors = adaptedTensors().flatMap(({ name, inputs, outputs }) => [
    noise(`${name}.lora_a`, [inputs, r], 1),
    noise(`${name}.lora_b`, [r, outputs], 2),
  ]);
  const metadata = new Map<string, GgufValue>([
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.type", { type: "string", value: "adapter" }],
    ["general.name", { type: "string", value: `${TINY_LLAMA.name}-lora` }],
    ["general.license", { type: "string", value: "made by llmgw; the project's own licence" }],
    ["adapter.type", { type: "string", value: "lora" }],
    ["adapter.lora.alpha", { type: "f32", value: TINY_LORA.alpha }],
  ]);
  return writeGguf(metadata, tensors);
}
