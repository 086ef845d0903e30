// The smallest model the real-engine tests serve: a llama-architecture GGUF made here, the same
// bytes from the same seed on every machine, so CI needs no model download. Two layers, 64-wide,
// a sentencepiece-style vocabulary of the 256 byte tokens, three special tokens and a few words
// (byte fallback lets llama.cpp tokenize any text with it). Its weights are seeded noise: it
// answers gibberish, which is all a test of serving needs. Made by this project, under its licence.
import { seededRandom } from "@llmgw/domain/seeded-random";
import { writeGguf, type GgufTensor, type GgufValue } from "./gguf-writer.ts";

export const TINY_LLAMA = {
  name: "llmgw-tiny-llama",
  embeddingLength: 64,
  blockCount: 2,
  feedForwardLength: 128,
  headCount: 4,
  contextLength: 512,
  seed: 20_261_202,
} as const;

/** The shape of a generated llama model; the defaults are TINY_LLAMA's. */
export interface LlamaShape {
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
}

const WORDS = ["the", "a", "and", "of", "to", "in", "is", "it", "you", "that", "model", "hello"];

/** llama.cpp's token types: normal 1, unknown 2, control 3, byte 6. */
const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types: number[] = [TOKEN_TYPE.unknown, TOKEN_TYPE.control, TOKEN_TYPE.control];
  for (let byte = 0; byte < 256; byte += 1) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TOKEN_TYPE.byte);
  }
  for (const word of WORDS) {
    tokens.push(`\u2581${word}`);
    types.push(TOKEN_TYPE.normal);
  }
  // Longer pieces score higher, so the tokenizer prefers a word to its bytes.
  const scores = tokens.map((token, index) =>
    types[index] === TOKEN_TYPE.normal ? -index / 1000 : -1000 + token.length,
  );
  return { tokens, scores, types };
}

function metadata(vocab: ReturnType<typeof vocabulary>, shape: LlamaShape): Map<string, GgufValue> {
  const m = { ...TINY_LLAMA, ...shape };
  return new Map<string, GgufValue>([
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: m.name }],
    ["general.license", { type: "string", value: "made by llmgw; the project's own licence" }],
    ["llama.context_length", { type: "u32", value: m.contextLength }],
    ["llama.embedding_length", { type: "u32", value: m.embeddingLength }],
    ["llama.block_count", { type: "u32", value: m.blockCount }],
    ["llama.feed_forward_length", { type: "u32", value: m.feedForwardLength }],
    ["llama.attention.head_count", { type: "u32", value: m.headCount }],
    ["llama.attention.head_count_kv", { type: "u32", value: m.headCount }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["llama.rope.dimension_count", { type: "u32", value: m.embeddingLength / m.headCount }],
    ["tokenizer.ggml.model", { type: "string", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: vocab.tokens }],
    ["tokenizer.ggml.scores", { type: "f32[]", value: vocab.scores }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: vocab.types }],
    ["tokenizer.ggml.unknown_token_id", { type: "u32", value: 0 }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: 1 }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: 2 }],
  ]);
}

function tensors(vocabSize: number, shape: LlamaShape): GgufTensor[] {
  const random = seededRandom(TINY_LLAMA.seed);
  const { embeddingLength: n, feedForwardLength: ff } = shape;
  const noise = (name: string, dims: number[]): GgufTensor => {
    const count = dims.reduce((product, dim) => product * dim, 1);
    const data = new Float32Array(count);
    for (let i = 0; i < count; i += 1) data[i] = (random() - 0.5) * 0.2;
    return { name, dims, data };
  };
  const ones = (name: string): GgufTensor => ({
    name,
    dims: [n],
    data: new Float32Array(n).fill(1),
  });
  const layers = Array.from({ length: shape.blockCount }, (_, i) => [
    ones(`blk.${i}.attn_norm.weight`),
    noise(`blk.${i}.attn_q.weight`, [n, n]),
    noise(`blk.${i}.attn_k.weight`, [n, n]),
    noise(`blk.${i}.attn_v.weight`, [n, n]),
    noise(`blk.${i}.attn_output.weight`, [n, n]),
    ones(`blk.${i}.ffn_norm.weight`),
    noise(`blk.${i}.ffn_gate.weight`, [n, ff]),
    noise(`blk.${i}.ffn_up.weight`, [n, ff]),
    noise(`blk.${i}.ffn_down.weight`, [ff, n]),
  ]);
  return [
    noise("token_embd.weight", [n, vocabSize]),
    ...layers.flat(),
    ones("output_norm.weight"),
    noise("output.weight", [n, vocabSize]),
  ];
}

/** How many tokens the tiny model's vocabulary holds (the rows of `output.weight`). */
export function tinyLlamaVocabSize(): number {
  return vocabulary().tokens.length;
}

/**
 * The whole GGUF file, byte for byte the same on every call with the same shape. A larger shape
 * (the CPU decode calibration's, bench/cpu-decode) makes a model big enough to be memory-bound.
 */
export function tinyLlamaGguf(shape: Partial<LlamaShape> = {}): Buffer {
  const vocab = vocabulary();
  const full: LlamaShape = { ...TINY_LLAMA, ...shape };
  return writeGguf(metadata(vocab, full), tensors(vocab.tokens.length, full));
}
