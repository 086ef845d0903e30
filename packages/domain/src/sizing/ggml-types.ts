// What a GGUF's tensor types cost, and the names llama.cpp gives its file types. Both tables follow
// ggml's own: `enum ggml_type` and its block sizes in ggml/include/ggml.h and ggml/src/ggml.c
// (type_traits: elements per block, bytes per block), and `enum llama_ftype` in llama.cpp's
// include/llama.h. GGUF itself is specified in ggml's docs/gguf.md.

/** [elements per block, bytes per block] by ggml type id. */
const GGML_BLOCKS: Record<number, readonly [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
  34: [256, 54], // TQ1_0
  35: [256, 66], // TQ2_0
  39: [32, 17], // MXFP4
};

/** Bytes a tensor of `elements` weights of ggml type `typeId` takes; undefined for an unknown type. */
export function ggmlTensorBytes(typeId: number, elements: number): number | undefined {
  const block = GGML_BLOCKS[typeId];
  if (!block) return undefined;
  const [elementsPerBlock, bytesPerBlock] = block;
  return Math.ceil(elements / elementsPerBlock) * bytesPerBlock;
}

const FILE_TYPES: Record<number, string> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  21: "Q2_K_S",
  22: "IQ3_XS",
  23: "IQ3_XXS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  27: "IQ3_M",
  28: "IQ2_S",
  29: "IQ2_M",
  30: "IQ4_XS",
  31: "IQ1_M",
  32: "BF16",
  36: "TQ1_0",
  37: "TQ2_0",
  38: "MXFP4_MOE",
};

/** `general.file_type` as llama.cpp names it: 15 → "Q4_K_M". */
export function ggufFileTypeName(fileType: number): string {
  return FILE_TYPES[fileType] ?? `file type ${fileType}`;
}
