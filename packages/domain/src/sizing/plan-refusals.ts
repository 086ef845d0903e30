// Why a plan is refused, each sentence naming what would do instead: the card count that holds
// the weights, the largest context the cards hold, the counts that split the heads.
import type { CardFit } from "./fit";
import { cardsWord, gbOf, note, tokens } from "./notes";
import type { ModelDescription, SizingNote } from "./types";

export function badInputRefusal(problem: string): SizingNote {
  return note("sizing.bad_input", { problem }, problem);
}

export function pastTrainedRefusal(asked: number, trained: number): SizingNote {
  return note(
    "sizing.context_past_trained",
    { askedTokens: asked, trainedTokens: trained },
    `a context of ${tokens(asked)} tokens is past the ${tokens(trained)} the model was trained for; ask for ${tokens(trained)} or less`,
  );
}

export function splitRefusal(model: ModelDescription, cards: number, valid: number[]): SizingNote {
  const params = {
    cards,
    attentionHeads: model.attentionHeads,
    kvHeads: model.kvHeads,
    validCounts: valid.join(", "),
  };
  return note(
    "sizing.split_invalid",
    params,
    `${cardsWord(cards)} cannot split ${model.attentionHeads} attention heads and ${model.kvHeads} KV heads evenly; use ${params.validCounts} cards`,
  );
}

export function weightsRefusal(
  weightBytes: number,
  fit: CardFit,
  cardMemoryGb: number,
  cardsForWeights: number | undefined,
): SizingNote {
  const params = {
    weightGb: gbOf(weightBytes),
    cards: fit.cards,
    cardGb: cardMemoryGb,
    cardsNeeded: cardsForWeights ?? 0,
  };
  const instead = cardsForWeights
    ? `${cardsWord(cardsForWeights)} of ${cardMemoryGb} GB would hold them`
    : "no count of these cards would hold them; use larger cards or a quantised model";
  return note(
    "sizing.weights_do_not_fit",
    params,
    `the weights take ${params.weightGb} GB and do not fit on ${cardsWord(fit.cards)} of ${cardMemoryGb} GB beside what each card keeps back; ${instead}`,
  );
}

export function contextRefusal(
  fit: CardFit,
  slots: number,
  minimumTokens: number,
  cardsForMinimum: number | undefined,
): SizingNote {
  const largest = Math.floor(fit.kvTokensFit / slots);
  const params = {
    largestTokens: largest,
    slots,
    minimumTokens,
    cards: fit.cards,
    cardsNeeded: cardsForMinimum ?? 0,
  };
  const instead = cardsForMinimum ? `; ${cardsWord(cardsForMinimum)} would hold it` : "";
  return note(
    "sizing.no_room_for_context",
    params,
    `beside the weights, ${cardsWord(fit.cards)} hold ${tokens(largest)} tokens of context for ${slots} at once, less than the ${tokens(minimumTokens)} a model needs to be of use${instead}`,
  );
}
