// What sizing knows about a model, whichever file it was read from (a Hugging Face config.json or a
// GGUF header), and the sentences it answers with. Plain values: the server, the CLI and the
// console pass them around and translate the notes by their codes.

/** The floating-point type a model's weights are published in (`torch_dtype`). */
export type FloatDtype = "float32" | "bfloat16" | "float16";

/** The number format of quantised weights: what one weight costs is decided by this. */
export type QuantizedFormat = "fp8" | "int8" | "int4" | "nf4";

export interface Quantization {
  /** As the file names it: `fp8`, `awq`, `gptq`, `bitsandbytes`, `compressed-tensors`. */
  method: string;
  format: QuantizedFormat;
}

/** A sentence sizing says, kept as a code and parameters so the console can translate it. */
export interface SizingNote {
  code: `sizing.${string}`;
  params: Record<string, string | number>;
  /** The English sentence, for the CLI and logs. */
  text: string;
}

export interface ExpertShape {
  /** Routed experts in each mixture-of-experts layer. */
  count: number;
  /** Routed experts each token goes through. */
  perToken: number;
  /** Width of one routed expert's MLP. */
  intermediateSize: number;
  /** Experts every token goes through (DeepSeek, Qwen2-MoE); 0 when none. */
  sharedCount: number;
  sharedIntermediateSize: number;
  /** Leading layers with a dense MLP instead of experts (DeepSeek's first_k_dense_replace). */
  denseLayers: number;
}

export interface ParameterCount {
  /** Every weight, the vision tower included. */
  total: number;
  /** The weights one token reads: for a mixture of experts, only its chosen experts. */
  active: number;
  /** The vision tower's share of `total` (0 for a text model). */
  vision: number;
  /** True when part of the count is an estimate (a vision tower read from too few numbers). */
  isApproximate: boolean;
}

export interface ModelDescription {
  /** Where the numbers came from. */
  source: "config.json" | "gguf";
  /** `model_type` of the text model, or GGUF's `general.architecture`. */
  architecture: string;
  layers: number;
  hiddenSize: number;
  attentionHeads: number;
  kvHeads: number;
  headDim: number;
  vocabSize: number;
  /** Width of the dense MLP (0 when every layer is experts and the file gives none). */
  intermediateSize: number;
  experts?: ExpertShape;
  /** The context the model was trained for (max_position_embeddings), when the file says. */
  contextTokensTrained?: number;
  tiedEmbeddings: boolean;
  /** The type the unquantised weights (embeddings, norms, vision tower) are kept in. */
  dtype: FloatDtype;
  /** How the layers' weights are quantised; absent: stored in `dtype`. */
  quantization?: Quantization;
  /** A GGUF's file type as llama.cpp names it (`Q4_K_M`), for the sentences. */
  ggufFileType?: string;
  parameters: ParameterCount;
  /** Bytes of the weights as stored, when the file gives them exactly (a GGUF's tensors). */
  weightBytesExact?: number;
  /** What describing had to guess, said once here so every plan can repeat it. */
  notes: SizingNote[];
}
