// The architecture numbers of models whose weights live where the control plane cannot read their
// config.json (a Hugging Face repository named by a preset or a catalog model). Keyed by the
// model's `source`, so a catalog model added from a preset is sized the same way. Each entry is
// the published config.json's architecture fields.

/** meta-llama/Llama-3.1-8B-Instruct's config.json (the Instruct model shares the base's shape). */
const LLAMA_31_8B = {
  architectures: ["LlamaForCausalLM"],
  model_type: "llama",
  hidden_size: 4096,
  intermediate_size: 14_336,
  max_position_embeddings: 131_072,
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 8,
  tie_word_embeddings: false,
  torch_dtype: "bfloat16",
  vocab_size: 128_256,
};

const KNOWN_CONFIGS: ReadonlyMap<string, unknown> = new Map([
  ["meta-llama/Llama-3.1-8B-Instruct", LLAMA_31_8B],
]);

/** The config.json sizing can read for a model stored at `source`; undefined when none is known. */
export function knownConfigFor(source: string): unknown {
  return KNOWN_CONFIGS.get(source);
}
