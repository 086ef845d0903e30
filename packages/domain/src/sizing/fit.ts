// How a model sits on N cards of one size: how it is split, what each card holds, and how many
// tokens of cache fit beside the weights. The plan asks this for the cards it was given and for
// every other count, to name the smallest that would do.
import {
  ENGINE_OVERHEAD_BYTES,
  GPU_MEMORY_UTILIZATION,
  KV_BLOCK_TOKENS,
  activationBytesPerCard,
  kvBytesPerTokenPerCard,
  weightBytesOf,
} from "./memory";
import type { ModelDescription } from "./types";

/** Card counts the plan looks through when it names the smallest that would hold a model. */
export const MAX_CARDS_SEARCHED = 64;

/**
 * vLLM, SGLang and TensorRT-LLM split each layer's heads across cards (tensor parallel);
 * llama.cpp, which serves GGUF files, gives each card whole layers.
 */
export type SplitKind = "tensor" | "layer";

export function splitKindOf(model: ModelDescription): SplitKind {
  return model.source === "gguf" ? "layer" : "tensor";
}

/**
 * Whether `cards` can split the model's attention: every card gets whole query heads, and either
 * a share of the KV heads (a divisor of them) or a copy of one (a multiple of them).
 */
export function isValidSplit(model: ModelDescription, cards: number): boolean {
  if (!Number.isInteger(cards) || cards < 1) return false;
  if (splitKindOf(model) === "layer") return cards <= model.layers;
  if (model.attentionHeads % cards !== 0) return false;
  return model.kvHeads % cards === 0 || cards % model.kvHeads === 0;
}

export function validCardCounts(model: ModelDescription, upTo: number): number[] {
  const counts: number[] = [];
  for (let cards = 1; cards <= upTo; cards += 1) if (isValidSplit(model, cards)) counts.push(cards);
  return counts;
}

export interface CardFit {
  cards: number;
  split: SplitKind;
  weightBytesPerCard: number;
  /** What a card keeps back: the share the engine leaves free, its overhead, its activations. */
  reserved: { unusedBytes: number; overheadBytes: number; activationBytes: number };
  /** Room for the cache on each card after the weights; below 0 when the weights do not fit. */
  kvRoomBytesPerCard: number;
  kvBytesPerTokenPerCard: number;
  /** Tokens of cache the cards hold together, in whole blocks; 0 when the weights do not fit. */
  kvTokensFit: number;
}

export function fitOn(
  model: ModelDescription,
  cards: number,
  cardMemoryBytes: number,
  kvElementBytes: number,
): CardFit {
  const split = splitKindOf(model);
  const weightBytesPerCard = weightBytesOf(model) / cards;
  const reserved = {
    unusedBytes: cardMemoryBytes * (1 - GPU_MEMORY_UTILIZATION),
    overheadBytes: ENGINE_OVERHEAD_BYTES,
    // Split by layers, each card still runs a layer's whole width.
    activationBytes: activationBytesPerCard(model, split === "tensor" ? cards : 1),
  };
  const kvRoomBytesPerCard =
    cardMemoryBytes -
    reserved.unusedBytes -
    reserved.overheadBytes -
    reserved.activationBytes -
    weightBytesPerCard;
  const perToken = kvBytesPerTokenPerCard(model, { cards, kind: split }, kvElementBytes);
  const tokens = kvRoomBytesPerCard > 0 ? Math.floor(kvRoomBytesPerCard / perToken) : 0;
  return {
    cards,
    split,
    weightBytesPerCard,
    reserved,
    kvRoomBytesPerCard,
    kvBytesPerTokenPerCard: perToken,
    kvTokensFit: Math.floor(tokens / KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS,
  };
}

/** The smallest valid card count whose cache holds `tokensNeeded`; undefined past the search. */
export function smallestCardsFor(
  model: ModelDescription,
  cardMemoryBytes: number,
  kvElementBytes: number,
  tokensNeeded: number,
): number | undefined {
  for (let cards = 1; cards <= MAX_CARDS_SEARCHED; cards += 1) {
    if (!isValidSplit(model, cards)) continue;
    if (fitOn(model, cards, cardMemoryBytes, kvElementBytes).kvTokensFit >= tokensNeeded)
      return cards;
  }
  return undefined;
}
