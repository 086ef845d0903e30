// The model plan: given a description and the cards a replica gets, the bytes of the weights and
// the cache, what each card keeps back, how many tokens of context fit, how the model is split,
// and the smallest card counts that would hold it. A context longer than what fits is shrunk, with
// a sentence saying so; weights that do not fit are refused, naming what would.
import { z } from "zod";
import { catalogErrorMap, formatIssues } from "../catalog/issues";
import {
  fitOn,
  isValidSplit,
  smallestCardsFor,
  splitKindOf,
  validCardCounts,
  type CardFit,
  type SplitKind,
} from "./fit";
import { kvBytesPerToken, kvElementBytes, weightBytesOf } from "./memory";
import {
  contextFitsNote,
  contextShrunkNote,
  expertParallelNote,
  kvNote,
  reserveNote,
  splitNote,
  weightsNote,
} from "./plan-notes";
import {
  badInputRefusal,
  contextRefusal,
  pastTrainedRefusal,
  splitRefusal,
  weightsRefusal,
} from "./plan-refusals";
import type { ModelDescription, SizingNote } from "./types";

/**
 * The least context per sequence a plan grants: below it a prompt and its answer do not fit, so
 * the model is refused rather than served useless.
 */
export const MIN_CONTEXT_TOKENS = 2048;

/** The context asked for when neither the caller nor the file names one. */
const DEFAULT_CONTEXT_TOKENS = 4096;

/** A context granted after shrinking is a multiple of this, so it reads as a round number. */
const CONTEXT_STEP_TOKENS = 256;

export const planOptionsSchema = z.strictObject({
  cards: z.strictObject({
    memoryGb: z
      .number()
      .positive({ error: "cards.memoryGb: write each card's memory in GB, above 0" }),
    count: z
      .number()
      .int()
      .min(1, { error: "cards.count: write a whole number of cards, at least 1" }),
  }),
  contextTokens: z
    .number()
    .int()
    .min(1, { error: "contextTokens: write a whole number of tokens, at least 1" })
    .optional(),
  slots: z
    .number()
    .int()
    .min(1, { error: "slots: write a whole number of sequences, at least 1" })
    .optional(),
  kvCacheDtype: z.enum(["auto", "fp8"]).optional(),
});

export type PlanOptions = z.input<typeof planOptionsSchema>;

export interface ModelPlan {
  fits: boolean;
  cards: number;
  cardMemoryGb: number;
  split: SplitKind;
  /** Cards splitting each layer's heads; 1 when llama.cpp splits layers instead. */
  tensorParallel: number;
  expertParallel: boolean;
  weightBytes: number;
  weightBytesPerCard: number;
  /** Cache bytes of one token for the whole model. */
  kvBytesPerToken: number;
  kvBytesPerTokenPerCard: number;
  reservedBytesPerCard: CardFit["reserved"];
  /** Tokens of cache the cards hold together beside the weights. */
  kvTokensFit: number;
  contextTokensAsked: number;
  /** The context each sequence gets: the one asked for, or less when shrunk; 0 when refused. */
  contextTokens: number;
  slots: number;
  /** The smallest count of these cards that holds the weights and a useful context. */
  cardsForWeights?: number;
  /** The smallest count of these cards that holds the weights and every slot's full context. */
  cardsForFullContext?: number;
  notes: SizingNote[];
  /** Why the plan is refused (also the last of `notes`). */
  refusal?: SizingNote;
}

function refused(plan: Omit<ModelPlan, "fits">, refusal: SizingNote): ModelPlan {
  return { ...plan, fits: false, contextTokens: 0, notes: [...plan.notes, refusal], refusal };
}

function askedContext(model: ModelDescription, asked: number | undefined): number {
  return asked ?? model.contextTokensTrained ?? DEFAULT_CONTEXT_TOKENS;
}

/** The plan for `model` on `options.cards`; every answer carries its sentences in `notes`. */
export function planModel(model: ModelDescription, options: PlanOptions): ModelPlan {
  const parsed = planOptionsSchema.safeParse(options, { error: catalogErrorMap });
  if (!parsed.success) {
    const problem = parsed.error.issues.flatMap(formatIssues).join("; ");
    return refused(emptyPlan(model, options), badInputRefusal(problem));
  }
  const { cards, slots = 1, kvCacheDtype = "auto" } = parsed.data;
  const asked = askedContext(model, parsed.data.contextTokens);
  const cardBytes = cards.memoryGb * 1e9;
  const elementBytes = kvElementBytes(kvCacheDtype);
  const fit = fitOn(model, cards.count, cardBytes, elementBytes);
  const plan = describePlan(model, fit, cards.memoryGb, { asked, slots, elementBytes });
  const trained = model.contextTokensTrained;
  if (trained !== undefined && asked > trained)
    return refused(plan, pastTrainedRefusal(asked, trained));
  if (!isValidSplit(model, cards.count))
    return refused(
      plan,
      splitRefusal(model, cards.count, validCardCounts(model, Math.max(cards.count, 8))),
    );
  if (fit.kvRoomBytesPerCard <= 0)
    return refused(
      plan,
      weightsRefusal(plan.weightBytes, fit, cards.memoryGb, plan.cardsForWeights),
    );
  const largest = Math.floor(fit.kvTokensFit / slots);
  if (largest < MIN_CONTEXT_TOKENS)
    return refused(plan, contextRefusal(fit, slots, MIN_CONTEXT_TOKENS, plan.cardsForWeights));
  if (largest >= asked)
    return {
      ...plan,
      fits: true,
      contextTokens: asked,
      notes: [...plan.notes, contextFitsNote(asked, slots)],
    };
  const granted = Math.floor(largest / CONTEXT_STEP_TOKENS) * CONTEXT_STEP_TOKENS;
  const shrunk = contextShrunkNote(asked, granted, slots, plan.cardsForFullContext);
  return { ...plan, fits: true, contextTokens: granted, notes: [...plan.notes, shrunk] };
}

/** Everything but the verdict: the bytes, the split, the explaining sentences. */
function describePlan(
  model: ModelDescription,
  fit: CardFit,
  cardMemoryGb: number,
  want: { asked: number; slots: number; elementBytes: number },
): Omit<ModelPlan, "fits"> {
  const cardBytes = cardMemoryGb * 1e9;
  const weightBytes = weightBytesOf(model);
  const wholeKv = kvBytesPerToken(model, want.elementBytes);
  const expertParallel = model.experts !== undefined && fit.cards > 1 && fit.split === "tensor";
  const cardsForWeights = smallestCardsFor(
    model,
    cardBytes,
    want.elementBytes,
    MIN_CONTEXT_TOKENS * want.slots,
  );
  const cardsForFullContext = smallestCardsFor(
    model,
    cardBytes,
    want.elementBytes,
    want.asked * want.slots,
  );
  const notes = [
    ...model.notes,
    weightsNote(model, weightBytes, fit.cards),
    reserveNote(fit),
    kvNote(model, wholeKv, fit),
    splitNote(model, fit),
    expertParallel ? expertParallelNote(model, fit.cards) : undefined,
  ].filter((entry): entry is SizingNote => entry !== undefined);
  return {
    cards: fit.cards,
    cardMemoryGb,
    split: fit.split,
    tensorParallel: fit.split === "tensor" ? fit.cards : 1,
    expertParallel,
    weightBytes,
    weightBytesPerCard: fit.weightBytesPerCard,
    kvBytesPerToken: wholeKv,
    kvBytesPerTokenPerCard: fit.kvBytesPerTokenPerCard,
    reservedBytesPerCard: fit.reserved,
    kvTokensFit: fit.kvTokensFit,
    contextTokensAsked: want.asked,
    contextTokens: 0,
    slots: want.slots,
    ...(cardsForWeights ? { cardsForWeights } : {}),
    ...(cardsForFullContext ? { cardsForFullContext } : {}),
    notes,
  };
}

/** A plan for options too broken to compute with: only the refusal says anything. */
function emptyPlan(model: ModelDescription, options: PlanOptions): Omit<ModelPlan, "fits"> {
  const reserved = { unusedBytes: 0, overheadBytes: 0, activationBytes: 0 };
  return {
    cards: 0,
    cardMemoryGb: 0,
    split: splitKindOf(model),
    tensorParallel: 0,
    expertParallel: false,
    weightBytes: weightBytesOf(model),
    weightBytesPerCard: 0,
    kvBytesPerToken: 0,
    kvBytesPerTokenPerCard: 0,
    reservedBytesPerCard: reserved,
    kvTokensFit: 0,
    contextTokensAsked: options.contextTokens ?? 0,
    contextTokens: 0,
    slots: options.slots ?? 1,
    notes: [...model.notes],
  };
}
