// How many weights a transformer has, computed from its shape the way its modules are built: an
// embedding table, per layer an attention block (queries at full width, keys and values at the
// narrower grouped-query width) and a gated MLP (gate, up and down projections) or a set of experts
// with their router, two norms per layer and one at the end, and an output head unless it shares
// the embedding's weights. Biases and per-head norms are left out: they are thousandths of a percent.
import type { ExpertShape, ModelDescription } from "./types";

export type TextShape = Pick<
  ModelDescription,
  | "layers"
  | "hiddenSize"
  | "attentionHeads"
  | "kvHeads"
  | "headDim"
  | "vocabSize"
  | "intermediateSize"
  | "experts"
  | "tiedEmbeddings"
>;

/** Queries, keys, values and the output projection of one layer. */
function attentionParameters(shape: TextShape): number {
  const queryWidth = shape.attentionHeads * shape.headDim;
  const kvWidth = shape.kvHeads * shape.headDim;
  return shape.hiddenSize * queryWidth * 2 + shape.hiddenSize * kvWidth * 2;
}

/** A gated MLP (SwiGLU): gate and up project to `width`, down projects back. */
function gatedMlpParameters(hiddenSize: number, width: number): number {
  return 3 * hiddenSize * width;
}

/** The expert weights of one layer: every routed expert, or only those one token goes through. */
function expertLayerParameters(hiddenSize: number, experts: ExpertShape, routed: number): number {
  const router = hiddenSize * experts.count;
  const shared =
    experts.sharedCount * gatedMlpParameters(hiddenSize, experts.sharedIntermediateSize);
  return router + shared + routed * gatedMlpParameters(hiddenSize, experts.intermediateSize);
}

/** The text model's weights: all of them, and those one token reads. */
export function countTextParameters(shape: TextShape): { total: number; active: number } {
  const embedding = shape.vocabSize * shape.hiddenSize;
  const head = shape.tiedEmbeddings ? 0 : embedding;
  const norms = (2 * shape.layers + 1) * shape.hiddenSize;
  const attention = shape.layers * attentionParameters(shape);
  const fixed = embedding + head + norms + attention;
  const experts = shape.experts;
  if (!experts) {
    const mlp = shape.layers * gatedMlpParameters(shape.hiddenSize, shape.intermediateSize);
    return { total: fixed + mlp, active: fixed + mlp };
  }
  const denseLayers = Math.min(experts.denseLayers, shape.layers);
  const dense = denseLayers * gatedMlpParameters(shape.hiddenSize, shape.intermediateSize);
  const expertLayers = shape.layers - denseLayers;
  const all = expertLayers * expertLayerParameters(shape.hiddenSize, experts, experts.count);
  const chosen = expertLayers * expertLayerParameters(shape.hiddenSize, experts, experts.perToken);
  return { total: fixed + dense + all, active: fixed + dense + chosen };
}

/** The shape of a vision tower as `vision_config` gives it, where it does. */
export interface VisionShape {
  layers: number;
  hiddenSize: number;
  intermediateSize: number;
  patchSize: number;
  channels: number;
  /** Width of what the tower hands the projector, when the file names it. */
  outputSize: number;
}

/**
 * A vision tower's weights, estimated as a plain vision transformer (attention, a two-matrix MLP,
 * the patch embedding) plus one projection into the text model's width. Families differ in the
 * details (gated MLPs, tile embeddings, patch mergers), so the count is an estimate within a few
 * percent of the whole model, and the description says so.
 */
export function estimateVisionParameters(vision: VisionShape, textHiddenSize: number): number {
  const attention = 4 * vision.hiddenSize * vision.hiddenSize;
  const mlp = 2 * vision.hiddenSize * vision.intermediateSize;
  const layers = vision.layers * (attention + mlp + 2 * vision.hiddenSize);
  const patchEmbedding = vision.channels * vision.patchSize * vision.patchSize * vision.hiddenSize;
  const projector = vision.outputSize * textHiddenSize;
  return layers + patchEmbedding + projector;
}
