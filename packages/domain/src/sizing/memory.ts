// The bytes a model takes on its cards: weights, the KV cache per token, and what each card keeps
// back for the engine. The figures follow vLLM, the engine the cards mostly run; each constant
// says where it comes from.
import { FLOAT_WEIGHT_BYTES, QUANTIZED_WEIGHT_BYTES } from "./quantization";
import type { ModelDescription } from "./types";

/** vLLM's default `--gpu-memory-utilization`: the share of a card one engine may take. */
export const GPU_MEMORY_UTILIZATION = 0.9;

/**
 * Per card, beside the weights and the cache: the CUDA context (about 0.5 GiB) and the CUDA graphs
 * vLLM captures for decoding (it logs 0.5 to 1 GiB for them), both inside the utilization share.
 */
export const ENGINE_OVERHEAD_BYTES = 1.5 * 2 ** 30;

/**
 * vLLM measures the activations of one forward pass over `max_num_batched_tokens` at start and
 * keeps that much back; 8192 is its default for the OpenAI server on cards of 70 GiB and more.
 */
export const PROFILED_BATCH_TOKENS = 8192;

/** Sequences vLLM samples at once by default (`max_num_seqs`); their logits are float32. */
const SAMPLED_SEQUENCES = 256;

/** vLLM hands out the cache in blocks of 16 tokens; a partial block holds nothing. */
export const KV_BLOCK_TOKENS = 16;

/** Bytes of one cached key or value element: 16-bit by default, 8 with `--kv-cache-dtype fp8`. */
export function kvElementBytes(kvCacheDtype: "auto" | "fp8"): number {
  return kvCacheDtype === "fp8" ? 1 : 2;
}

/**
 * The weights as the engine holds them. A GGUF says exactly; otherwise the parameters at their
 * format's cost, with the embedding, the output head and the vision tower at 16 bits, because
 * AWQ, GPTQ, bitsandbytes and fp8 checkpoints quantise only the layers' linear weights.
 */
export function weightBytesOf(model: ModelDescription): number {
  if (model.weightBytesExact !== undefined) return model.weightBytesExact;
  if (!model.quantization) return model.parameters.total * FLOAT_WEIGHT_BYTES;
  const embedding = model.vocabSize * model.hiddenSize * (model.tiedEmbeddings ? 1 : 2);
  const kept = embedding + model.parameters.vision;
  const quantized = model.parameters.total - kept;
  return quantized * QUANTIZED_WEIGHT_BYTES[model.quantization.format] + kept * FLOAT_WEIGHT_BYTES;
}

/**
 * KV heads one card holds when `tensorParallel` cards split the attention: a share of them, or
 * one copy each when there are more cards than heads (vLLM replicates a head then).
 */
function kvHeadsPerCard(model: ModelDescription, tensorParallel: number): number {
  return Math.max(1, model.kvHeads / tensorParallel);
}

/** Cache bytes of one token on one card: a key and a value per layer and KV head it holds. */
export function kvBytesPerTokenPerCard(
  model: ModelDescription,
  split: { cards: number; kind: "tensor" | "layer" },
  elementBytes: number,
): number {
  const whole = 2 * model.layers * model.kvHeads * model.headDim * elementBytes;
  if (split.kind === "layer") return Math.ceil(whole / split.cards);
  return 2 * model.layers * kvHeadsPerCard(model, split.cards) * model.headDim * elementBytes;
}

/** Cache bytes of one token for the whole model on one copy of the weights. */
export function kvBytesPerToken(model: ModelDescription, elementBytes: number): number {
  return 2 * model.layers * model.kvHeads * model.headDim * elementBytes;
}

/**
 * The activations of one profiled forward pass on one card: a few copies of the hidden states and
 * the MLP's gate, up and product at the card's share of its width, in 16 bits, plus float32 logits
 * of the sequences sampled at once.
 */
export function activationBytesPerCard(model: ModelDescription, cards: number): number {
  const experts = model.experts;
  const mlpWidth = experts
    ? experts.perToken * experts.intermediateSize +
      experts.sharedCount * experts.sharedIntermediateSize
    : model.intermediateSize;
  const perToken = (4 * model.hiddenSize + (3 * mlpWidth) / cards) * 2;
  const logits = (SAMPLED_SEQUENCES * model.vocabSize * 4) / cards;
  return PROFILED_BATCH_TOKENS * perToken + logits;
}
