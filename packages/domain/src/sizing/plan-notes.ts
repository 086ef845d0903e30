// The sentences a plan says, one function per code. Each keeps its numbers as parameters (the
// console formats them in the reader's locale) and says them in English for the CLI and logs.
import type { CardFit } from "./fit";
import { GPU_MEMORY_UTILIZATION } from "./memory";
import { billionsOf, cardsWord, gbOf, note, tokens } from "./notes";
import type { ModelDescription, SizingNote } from "./types";

function formatName(model: ModelDescription): string {
  if (model.ggufFileType) return model.ggufFileType;
  return model.quantization
    ? `${model.quantization.method} ${model.quantization.format}`
    : model.dtype;
}

export function weightsNote(
  model: ModelDescription,
  weightBytes: number,
  cards: number,
): SizingNote {
  const params = {
    billions: billionsOf(model.parameters.total),
    format: formatName(model),
    weightGb: gbOf(weightBytes),
    cards,
    perCardGb: gbOf(weightBytes / cards),
  };
  return note(
    "sizing.weights",
    params,
    `weights: ${params.billions}B parameters at ${params.format} take ${params.weightGb} GB, ${params.perCardGb} GB on each of ${cardsWord(cards)}`,
  );
}

export function reserveNote(fit: CardFit): SizingNote {
  const params = {
    utilization: GPU_MEMORY_UTILIZATION,
    unusedGb: gbOf(fit.reserved.unusedBytes),
    overheadGb: gbOf(fit.reserved.overheadBytes),
    activationGb: gbOf(fit.reserved.activationBytes),
  };
  return note(
    "sizing.reserve",
    params,
    `each card keeps back ${params.unusedGb} GB the engine leaves free (it takes ${params.utilization * 100}% of a card), ${params.overheadGb} GB for the CUDA context and graphs and ${params.activationGb} GB for activations`,
  );
}

export function kvNote(model: ModelDescription, kvBytesPerToken: number, fit: CardFit): SizingNote {
  const params = {
    kvBytesPerToken,
    layers: model.layers,
    kvHeads: model.kvHeads,
    headDim: model.headDim,
    tokensFit: fit.kvTokensFit,
  };
  return note(
    "sizing.kv_cache",
    params,
    `the KV cache takes ${tokens(kvBytesPerToken)} bytes a token (keys and values of ${params.layers} layers × ${params.kvHeads} KV heads × ${params.headDim}); ${tokens(fit.kvTokensFit)} tokens fit beside the weights`,
  );
}

export function splitNote(model: ModelDescription, fit: CardFit): SizingNote | undefined {
  if (fit.cards === 1) return undefined;
  if (fit.split === "layer")
    return note(
      "sizing.layer_split",
      { cards: fit.cards, layers: model.layers },
      `llama.cpp splits the ${model.layers} layers across ${cardsWord(fit.cards)}`,
    );
  const params = { tensorParallel: fit.cards, kvHeads: model.kvHeads };
  const held =
    fit.cards <= model.kvHeads
      ? `${model.kvHeads / fit.cards} of its ${model.kvHeads} KV heads on each card`
      : `each of its ${model.kvHeads} KV heads copied to ${fit.cards / model.kvHeads} cards`;
  return note("sizing.tensor_parallel", params, `tensor parallel ${fit.cards}: ${held}`);
}

export function expertParallelNote(model: ModelDescription, cards: number): SizingNote | undefined {
  if (!model.experts || cards === 1) return undefined;
  const params = {
    experts: model.experts.count,
    cards,
    expertsPerCard: model.experts.count / cards,
  };
  const share = Number.isInteger(params.expertsPerCard)
    ? `${params.expertsPerCard} on each card`
    : "unevenly, as the count does not divide";
  return note(
    "sizing.expert_parallel",
    params,
    `expert parallel: the ${params.experts} experts of each layer are spread over ${cardsWord(cards)}, ${share}`,
  );
}

export function contextFitsNote(contextTokens: number, slots: number): SizingNote {
  return note(
    "sizing.context_fits",
    { contextTokens, slots },
    `a context of ${tokens(contextTokens)} tokens fits for ${slots} at once`,
  );
}

export function contextShrunkNote(
  asked: number,
  granted: number,
  slots: number,
  cardsForFullContext: number | undefined,
): SizingNote {
  const params = {
    askedTokens: asked,
    grantedTokens: granted,
    slots,
    cardsForFullContext: cardsForFullContext ?? 0,
  };
  const more = cardsForFullContext ? `; ${cardsWord(cardsForFullContext)} would hold it all` : "";
  return note(
    "sizing.context_shrunk",
    params,
    `the context is shrunk from ${tokens(asked)} to ${tokens(granted)} tokens, what the cards hold beside the weights for ${slots} at once${more}`,
  );
}
