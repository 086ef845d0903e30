// The context a replica starts with. A profile's context (or, when it names none, the trained
// one) longer than the chosen cards hold beside the weights is shrunk to what fits, saying so;
// weights that do not fit at all, or leave no useful context, are refused before the engine starts
// and fails on every try.
import type { ModelProfile } from "../catalog/model-definition";
import { planModel } from "../sizing/plan";
import type { ModelDescription, SizingNote } from "../sizing/types";

export type ServeSizing =
  /** Start as the profile says: it fits, or sizing does not know the model or the cards. */
  | { kind: "as-asked" }
  | { kind: "shrunk"; contextTokens: number; askedTokens: number; note: SizingNote }
  | { kind: "refused"; note: SizingNote };

export function sizeAtServe(
  profile: ModelProfile,
  description: ModelDescription | undefined,
  cardMemoryGb: number | undefined,
  cards: number,
): ServeSizing {
  if (!description || cardMemoryGb === undefined || cardMemoryGb <= 0 || cards < 1)
    return { kind: "as-asked" };
  const plan = planModel(description, {
    cards: { memoryGb: cardMemoryGb, count: cards },
    ...(profile.context_length === undefined ? {} : { contextTokens: profile.context_length }),
    ...(profile.slots === undefined ? {} : { slots: profile.slots }),
  });
  if (plan.refusal) return { kind: "refused", note: plan.refusal };
  const shrunk = plan.notes.find((n) => n.code === "sizing.context_shrunk");
  if (!shrunk || plan.contextTokens >= plan.contextTokensAsked) return { kind: "as-asked" };
  return {
    kind: "shrunk",
    contextTokens: plan.contextTokens,
    askedTokens: plan.contextTokensAsked,
    note: shrunk,
  };
}
