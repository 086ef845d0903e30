// A model description from a GGUF header: the architecture's keys (`<arch>.block_count`,
// `.embedding_length`, `.attention.head_count(_kv)`, `.context_length`, `.expert_count`…) give
// the shape, and the tensor list gives the parameters and the bytes exactly, whatever mix of
// quantisations the file holds. Keys follow ggml's docs/gguf.md.
import { ggmlTensorBytes, ggufFileTypeName } from "./ggml-types";
import type { DescribeResult } from "./describe";
import { note } from "./notes";
import type { ExpertShape, ModelDescription } from "./types";

/** A GGUF header as a parser returns it: the key/value metadata and the tensor list. */
export interface GgufHeader {
  metadata: Readonly<Record<string, unknown>>;
  tensorInfos: readonly { name: string; shape: readonly (bigint | number)[]; dtype: number }[];
}

type Read = { ok: true; value: number } | { ok: false; error: string };

/** A numeric key; a per-layer list (models with uneven layers) reads as its largest entry. */
function numberAt(metadata: GgufHeader["metadata"], key: string): number | undefined {
  const value = metadata[key];
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  // Folded rather than spread: a hostile file's list may be longer than the call stack allows.
  if (Array.isArray(value) && value.length > 0)
    return value.reduce<number>((largest, entry) => Math.max(largest, Number(entry)), -Infinity);
  return undefined;
}

function required(metadata: GgufHeader["metadata"], key: string, meaning: string): Read {
  const value = numberAt(metadata, key);
  if (value === undefined || !Number.isInteger(value) || value <= 0)
    return { ok: false, error: `the GGUF header has no ${key} (${meaning})` };
  return { ok: true, value };
}

function elementsOf(shape: readonly (bigint | number)[]): number {
  return shape.reduce<number>((product, dimension) => product * Number(dimension), 1);
}

type Totals = { parameters: number; bytes: number; expertParameters: number };

/** Every weight and the bytes they take, and the weights held by routed experts. */
function tensorTotals(tensors: GgufHeader["tensorInfos"]): Totals | { error: string } {
  let parameters = 0;
  let bytes = 0;
  let expertParameters = 0;
  for (const tensor of tensors) {
    const elements = elementsOf(tensor.shape);
    const tensorBytes = ggmlTensorBytes(tensor.dtype, elements);
    if (tensorBytes === undefined)
      return {
        error: `tensor ${tensor.name} has ggml type ${tensor.dtype}, which sizing does not know`,
      };
    parameters += elements;
    bytes += tensorBytes;
    // llama.cpp names the stacked routed experts ffn_{gate,up,down}_exps; shared ones _shexp.
    if (tensor.name.includes("_exps.")) expertParameters += elements;
  }
  return { parameters, bytes, expertParameters };
}

function expertsOf(metadata: GgufHeader["metadata"], arch: string): ExpertShape | undefined {
  const count = numberAt(metadata, `${arch}.expert_count`) ?? 0;
  if (count === 0) return undefined;
  const width = numberAt(metadata, `${arch}.expert_feed_forward_length`) ?? 0;
  return {
    count,
    perToken: numberAt(metadata, `${arch}.expert_used_count`) ?? 1,
    intermediateSize: width,
    sharedCount: numberAt(metadata, `${arch}.expert_shared_count`) ?? 0,
    sharedIntermediateSize:
      numberAt(metadata, `${arch}.expert_shared_feed_forward_length`) ?? width,
    denseLayers: numberAt(metadata, `${arch}.leading_dense_block_count`) ?? 0,
  };
}

/** The vocabulary: the key when present, else the embedding's rows, else the token list. */
function vocabOf(header: GgufHeader, arch: string): number {
  const embedding = header.tensorInfos.find((tensor) => tensor.name === "token_embd.weight");
  const tokens = header.metadata["tokenizer.ggml.tokens"];
  return (
    numberAt(header.metadata, `${arch}.vocab_size`) ??
    (embedding ? Number(embedding.shape[1] ?? 0) : undefined) ??
    (Array.isArray(tokens) ? tokens.length : 0)
  );
}

/** What a header's keys say beyond the three every model has. */
function shapeFrom(header: GgufHeader, arch: string, hiddenSize: number, heads: number) {
  const experts = expertsOf(header.metadata, arch);
  const context = numberAt(header.metadata, `${arch}.context_length`);
  return {
    kvHeads: numberAt(header.metadata, `${arch}.attention.head_count_kv`) ?? heads,
    headDim:
      numberAt(header.metadata, `${arch}.attention.key_length`) ?? Math.floor(hiddenSize / heads),
    vocabSize: vocabOf(header, arch),
    intermediateSize: numberAt(header.metadata, `${arch}.feed_forward_length`) ?? 0,
    ...(experts ? { experts } : {}),
    ...(context ? { contextTokensTrained: context } : {}),
    tiedEmbeddings: !header.tensorInfos.some((tensor) => tensor.name === "output.weight"),
  };
}

/** The weights from the tensor list; one token reads its chosen share of the routed experts. */
function weightsFrom(totals: Totals, experts: ExpertShape | undefined, fileType?: string) {
  const activeShare = experts ? experts.perToken / experts.count : 1;
  return {
    dtype: "float16" as const,
    ...(fileType ? { ggufFileType: fileType } : {}),
    parameters: {
      total: totals.parameters,
      active: Math.round(totals.parameters - totals.expertParameters * (1 - activeShare)),
      vision: 0,
      isApproximate: false,
    },
    weightBytesExact: totals.bytes,
    notes: [
      note(
        "sizing.gguf_weights",
        { fileType: fileType ?? "unknown" },
        `weights counted from the GGUF's tensors (${fileType ?? "unknown file type"})`,
      ),
    ],
  };
}

/** Reads a parsed GGUF header into a description; errors name the key that is missing. */
export function describeGguf(header: GgufHeader): DescribeResult {
  const arch = header.metadata["general.architecture"];
  if (typeof arch !== "string")
    return { ok: false, errors: ["the GGUF header has no general.architecture"] };
  const reads = {
    layers: required(header.metadata, `${arch}.block_count`, "the number of layers"),
    hiddenSize: required(header.metadata, `${arch}.embedding_length`, "the model's width"),
    heads: required(header.metadata, `${arch}.attention.head_count`, "attention heads"),
  };
  const errors = Object.values(reads).flatMap((read) => (read.ok ? [] : [read.error]));
  if (!reads.layers.ok || !reads.hiddenSize.ok || !reads.heads.ok) return { ok: false, errors };
  const totals = tensorTotals(header.tensorInfos);
  if ("error" in totals) return { ok: false, errors: [totals.error] };
  const shape = shapeFrom(header, arch, reads.hiddenSize.value, reads.heads.value);
  const fileType = numberAt(header.metadata, "general.file_type");
  const description: ModelDescription = {
    source: "gguf",
    architecture: arch,
    layers: reads.layers.value,
    hiddenSize: reads.hiddenSize.value,
    attentionHeads: reads.heads.value,
    ...shape,
    ...weightsFrom(
      totals,
      shape.experts,
      fileType === undefined ? undefined : ggufFileTypeName(fileType),
    ),
  };
  return { ok: true, description };
}
