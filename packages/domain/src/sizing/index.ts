// Sizing: what a model needs from cards, computed from its own description (a config.json or a
// GGUF header). Pure; reading a GGUF file's bytes is the caller's (`@llmgw/domain/gguf`).
export type {
  ExpertShape,
  FloatDtype,
  ModelDescription,
  ParameterCount,
  Quantization,
  QuantizedFormat,
  SizingNote,
} from "./types";
export { describeConfig, type DescribeResult } from "./describe";
export { describeGguf, type GgufHeader } from "./gguf";
export { parseGgufDescription } from "./description-schema";
export {
  planModel,
  planOptionsSchema,
  MIN_CONTEXT_TOKENS,
  type ModelPlan,
  type PlanOptions,
} from "./plan";
export { isValidSplit, validCardCounts, MAX_CARDS_SEARCHED, type SplitKind } from "./fit";
export { GPU_MEMORY_UTILIZATION, ENGINE_OVERHEAD_BYTES, PROFILED_BATCH_TOKENS } from "./memory";
