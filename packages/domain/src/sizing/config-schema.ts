// The fields of a Hugging Face config.json that sizing reads. Files carry many more (tokens, rope
// settings, training leftovers), so every object is loose; a field sizing needs and cannot find is
// refused with its name and what it means, so a person can see which file is not a model's config.
import { z } from "zod";

function describeInput(input: unknown): string {
  if (typeof input === "string") return `"${input.slice(0, 40)}"`;
  if (input === null) return "null";
  if (typeof input === "number" || typeof input === "boolean") return String(input);
  return "a map or list";
}

/** A whole number above 0 (at least 0 with `allowZero`), refused with the field's name and meaning. */
function count(field: string, meaning: string, allowZero = false) {
  const wanted = `${field} (${meaning}) as a whole number`;
  const base = z.number({
    error: (issue) =>
      issue.input === undefined
        ? `config.json has no ${field} (${meaning}); is this a model's config.json?`
        : `${field} is ${describeInput(issue.input)}; write ${wanted}`,
  });
  return base
    .int({ error: `${field} must be ${wanted}` })
    .min(allowZero ? 0 : 1, { error: `${field} must be ${wanted} ${allowZero ? "≥ 0" : "> 0"}` });
}

/** An optional count; `null` (some files write it for "not used") reads as absent. */
function maybeCount(field: string, meaning: string, allowZero = false) {
  return count(field, meaning, allowZero).nullish();
}

export const textConfigSchema = z.looseObject({
  model_type: z.string().optional(),
  num_hidden_layers: count("num_hidden_layers", "the number of layers"),
  hidden_size: count("hidden_size", "the model's width"),
  num_attention_heads: count("num_attention_heads", "attention heads per layer"),
  num_key_value_heads: maybeCount("num_key_value_heads", "key/value heads per layer"),
  head_dim: maybeCount("head_dim", "the width of one attention head"),
  vocab_size: count("vocab_size", "tokens in the vocabulary"),
  intermediate_size: maybeCount("intermediate_size", "the width of the MLP"),
  max_position_embeddings: maybeCount("max_position_embeddings", "the trained context"),
  tie_word_embeddings: z.boolean().nullish(),
  torch_dtype: z.string().nullish(),
  dtype: z.string().nullish(),
  num_experts: maybeCount("num_experts", "routed experts per layer", true),
  num_local_experts: maybeCount("num_local_experts", "routed experts per layer", true),
  n_routed_experts: maybeCount("n_routed_experts", "routed experts per layer", true),
  num_experts_per_tok: maybeCount("num_experts_per_tok", "experts each token goes through"),
  moe_intermediate_size: maybeCount("moe_intermediate_size", "the width of one expert"),
  n_shared_experts: maybeCount("n_shared_experts", "shared experts per layer", true),
  num_shared_experts: maybeCount("num_shared_experts", "shared experts per layer", true),
  shared_expert_intermediate_size: maybeCount(
    "shared_expert_intermediate_size",
    "the width of the shared expert",
    true,
  ),
  first_k_dense_replace: maybeCount("first_k_dense_replace", "leading dense layers", true),
});

export type TextConfig = z.output<typeof textConfigSchema>;

// Vision towers name their numbers differently by family (Llama 3.2 Vision, Qwen2.5-VL, LLaVA's
// CLIP); each alternative is read, and a tower whose width or depth is missing is left uncounted.
export const visionConfigSchema = z.looseObject({
  hidden_size: z.number().nullish(),
  intermediate_size: z.number().nullish(),
  num_hidden_layers: z.number().nullish(),
  depth: z.number().nullish(),
  num_global_layers: z.number().nullish(),
  patch_size: z.number().nullish(),
  num_channels: z.number().nullish(),
  in_channels: z.number().nullish(),
  in_chans: z.number().nullish(),
  vision_output_dim: z.number().nullish(),
  out_hidden_size: z.number().nullish(),
});

export const quantizationConfigSchema = z.looseObject({
  quant_method: z.string({ error: "quantization_config has no quant_method; name the method" }),
  bits: z.number().nullish(),
  load_in_4bit: z.boolean().nullish(),
  load_in_8bit: z.boolean().nullish(),
  _load_in_4bit: z.boolean().nullish(),
  _load_in_8bit: z.boolean().nullish(),
  config_groups: z
    .record(
      z.string(),
      z.looseObject({
        weights: z.looseObject({ num_bits: z.number(), type: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
});

export type QuantizationConfig = z.output<typeof quantizationConfigSchema>;

export const modelConfigSchema = z.looseObject(
  {
    torch_dtype: z.string().nullish(),
    dtype: z.string().nullish(),
    text_config: z.looseObject({}).nullish(),
    vision_config: z.looseObject({}).nullish(),
    quantization_config: z.unknown().optional(),
  },
  { error: "a config.json is a map of fields ({…})" },
);
