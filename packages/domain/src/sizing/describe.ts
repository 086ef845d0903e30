// A model description read from a Hugging Face config.json. A vision-language model keeps its text
// model's numbers in `text_config` (read over the top level, which some families use instead) and
// its vision tower's in `vision_config`, counted as an estimate.
import { catalogErrorMap, formatIssues } from "../catalog/issues";
import type { z } from "zod";
import {
  modelConfigSchema,
  textConfigSchema,
  visionConfigSchema,
  type TextConfig,
} from "./config-schema";
import { billionsOf, note } from "./notes";
import { countTextParameters, estimateVisionParameters, type TextShape } from "./parameters";
import { parseDtype, parseQuantization } from "./quantization";
import type { ExpertShape, FloatDtype, ModelDescription, SizingNote } from "./types";

export type DescribeResult =
  { ok: true; description: ModelDescription } | { ok: false; errors: string[] };

function expertsOf(text: TextConfig): ExpertShape | undefined {
  const count = text.num_experts ?? text.num_local_experts ?? text.n_routed_experts ?? 0;
  if (count === 0) return undefined;
  // Mixtral gives one expert's width as intermediate_size; Qwen and DeepSeek as moe_intermediate_size.
  const intermediateSize = text.moe_intermediate_size ?? text.intermediate_size ?? 0;
  const sharedIntermediateSize = text.shared_expert_intermediate_size ?? intermediateSize;
  const sharedCount =
    text.n_shared_experts ??
    text.num_shared_experts ??
    (text.shared_expert_intermediate_size ? 1 : 0);
  return {
    count,
    perToken: text.num_experts_per_tok ?? 1,
    intermediateSize,
    sharedCount,
    sharedIntermediateSize,
    denseLayers: text.first_k_dense_replace ?? 0,
  };
}

function shapeOf(text: TextConfig): TextShape {
  return {
    layers: text.num_hidden_layers,
    hiddenSize: text.hidden_size,
    attentionHeads: text.num_attention_heads,
    kvHeads: text.num_key_value_heads ?? text.num_attention_heads,
    headDim: text.head_dim ?? Math.floor(text.hidden_size / text.num_attention_heads),
    vocabSize: text.vocab_size,
    intermediateSize: text.intermediate_size ?? 0,
    experts: expertsOf(text),
    // A file that does not say is sized as untied: counting the head apart never undercounts.
    tiedEmbeddings: text.tie_word_embeddings ?? false,
  };
}

function missingMlpWidth(shape: TextShape): string | undefined {
  if (!shape.experts && shape.intermediateSize === 0)
    return "config.json has no intermediate_size (the width of the MLP)";
  if (shape.experts && shape.experts.intermediateSize === 0)
    return "config.json has no moe_intermediate_size (the width of one expert)";
  return undefined;
}

/** The vision tower's weights and the note saying they are estimated (or not counted). */
function visionOf(
  input: unknown,
  textHiddenSize: number,
): { parameters: number; note: SizingNote } {
  const vision = visionConfigSchema.safeParse(input);
  const config = vision.success ? vision.data : {};
  const hiddenSize = config.hidden_size ?? 0;
  const layers = (config.num_hidden_layers ?? config.depth ?? 0) + (config.num_global_layers ?? 0);
  if (hiddenSize === 0 || layers === 0)
    return {
      parameters: 0,
      note: note(
        "sizing.vision_not_counted",
        {},
        "the vision tower's weights are not counted: vision_config gives no width or depth",
      ),
    };
  const parameters = estimateVisionParameters(
    {
      layers,
      hiddenSize,
      intermediateSize: config.intermediate_size ?? 4 * hiddenSize,
      patchSize: config.patch_size ?? 14,
      channels: config.num_channels ?? config.in_channels ?? config.in_chans ?? 3,
      outputSize: config.vision_output_dim ?? config.out_hidden_size ?? hiddenSize,
    },
    textHiddenSize,
  );
  const billions = billionsOf(parameters);
  return {
    parameters,
    note: note(
      "sizing.vision_estimated",
      { billions },
      `the vision tower's ${billions}B weights are estimated from vision_config`,
    ),
  };
}

function dtypeOf(named: string | null | undefined): { dtype?: FloatDtype; note?: SizingNote } {
  if (!named)
    return {
      dtype: "bfloat16",
      note: note("sizing.dtype_assumed", {}, "config.json names no torch_dtype; bfloat16 assumed"),
    };
  return { dtype: parseDtype(named) };
}

/** A field's own message names it already; zod's generic ones get the field put in front. */
function issueText(issue: z.core.$ZodIssue): string[] {
  const field = issue.path[0];
  if (field === undefined) return [issue.message];
  if (typeof field === "string" && issue.message.includes(field)) return [issue.message];
  return formatIssues(issue);
}

/** Reads a config.json (parsed JSON) into a description; errors name the field that is wrong. */
export function describeConfig(config: unknown): DescribeResult {
  const top = modelConfigSchema.safeParse(config, { error: catalogErrorMap });
  if (!top.success) return { ok: false, errors: top.error.issues.flatMap(issueText) };
  const merged = { ...top.data, ...(top.data.text_config ?? {}) };
  const parsed = textConfigSchema.safeParse(merged, { error: catalogErrorMap });
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.flatMap(issueText) };
  const text = parsed.data;
  const shape = shapeOf(text);
  const missing = missingMlpWidth(shape);
  if (missing) return { ok: false, errors: [missing] };
  const dtypeName = text.torch_dtype ?? text.dtype ?? top.data.torch_dtype ?? top.data.dtype;
  const { dtype, note: dtypeNote } = dtypeOf(dtypeName);
  if (!dtype)
    return {
      ok: false,
      errors: [`torch_dtype "${dtypeName}" is not float32, bfloat16 or float16`],
    };
  const notes: SizingNote[] = dtypeNote ? [dtypeNote] : [];
  let quantization;
  if (top.data.quantization_config !== undefined) {
    const read = parseQuantization(top.data.quantization_config);
    if (!read.ok) return { ok: false, errors: [read.error] };
    quantization = read.quantization;
  }
  const vision = top.data.vision_config
    ? visionOf(top.data.vision_config, shape.hiddenSize)
    : undefined;
  if (vision) notes.push(vision.note);
  const counted = countTextParameters(shape);
  const visionParameters = vision?.parameters ?? 0;
  const description: ModelDescription = {
    source: "config.json",
    architecture: text.model_type ?? "unknown",
    ...shape,
    ...(text.max_position_embeddings ? { contextTokensTrained: text.max_position_embeddings } : {}),
    dtype,
    ...(quantization ? { quantization } : {}),
    parameters: {
      total: counted.total + visionParameters,
      active: counted.active + visionParameters,
      vision: visionParameters,
      isApproximate: vision !== undefined,
    },
    notes,
  };
  return { ok: true, description };
}
