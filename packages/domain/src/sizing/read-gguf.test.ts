// A GGUF written here byte by byte after ggml's docs/gguf.md (version 3, little-endian), so the
// parser is checked against the format and not against its own writer.
import { describe, expect, it } from "vitest";
import { describeGgufSource, type GgufByteSource } from "./read-gguf";
import type { ModelDescription } from "./types";

const GGUF_TYPE = { uint32: 4, float32: 6, string: 8, uint64: 10 } as const;
const GGML = { f32: 0, f16: 1, q8_0: 8 } as const;
const ALIGNMENT_BYTES = 32;

type Value =
  { type: "uint32" | "uint64" | "float32"; value: number } | { type: "string"; value: string };
interface Tensor {
  name: string;
  shape: number[];
  ggmlType: number;
  bytes: number;
}

class Writer {
  private readonly parts: number[] = [];
  u32(value: number): this {
    for (let shift = 0; shift < 32; shift += 8) this.parts.push((value >>> shift) & 0xff);
    return this;
  }
  u64(value: number): this {
    return this.u32(value % 2 ** 32).u32(Math.floor(value / 2 ** 32));
  }
  f32(value: number): this {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, value, true);
    this.parts.push(...new Uint8Array(view.buffer));
    return this;
  }
  string(text: string): this {
    const bytes = new TextEncoder().encode(text);
    this.u64(bytes.length).parts.push(...bytes);
    return this;
  }
  value(entry: Value): this {
    this.u32(GGUF_TYPE[entry.type]);
    if (entry.type === "string") return this.string(entry.value);
    if (entry.type === "uint64") return this.u64(entry.value);
    return entry.type === "float32" ? this.f32(entry.value) : this.u32(entry.value);
  }
  pad(): this {
    while (this.parts.length % ALIGNMENT_BYTES !== 0) this.parts.push(0);
    return this;
  }
  get length(): number {
    return this.parts.length;
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** The header (metadata, tensor infos, padding) of a GGUF; tensor data follows at its end. */
function ggufHeader(metadata: Record<string, Value>, tensors: Tensor[]): Uint8Array {
  const writer = new Writer().u32(0x46554747).u32(3).u64(tensors.length);
  writer.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) writer.string(key).value(value);
  let offset = 0;
  for (const tensor of tensors) {
    writer.string(tensor.name).u32(tensor.shape.length);
    for (const dimension of tensor.shape) writer.u64(dimension);
    writer.u32(tensor.ggmlType).u64(offset);
    offset += Math.ceil(tensor.bytes / ALIGNMENT_BYTES) * ALIGNMENT_BYTES;
  }
  return writer.pad().bytes();
}

const HIDDEN = 64;
const FFN = 128;
const VOCAB = 256;
const KV_WIDTH = 32;

function q8(name: string, shape: number[]): Tensor {
  const elements = shape.reduce((a, b) => a * b, 1);
  return { name, shape, ggmlType: GGML.q8_0, bytes: (elements / 32) * 34 };
}

/** A two-layer llama with grouped-query attention: 4 heads, 2 KV heads of 16. */
function tinyLlamaTensors(): Tensor[] {
  const layer = (i: number): Tensor[] => [
    { name: `blk.${i}.attn_norm.weight`, shape: [HIDDEN], ggmlType: GGML.f32, bytes: HIDDEN * 4 },
    q8(`blk.${i}.attn_q.weight`, [HIDDEN, HIDDEN]),
    q8(`blk.${i}.attn_k.weight`, [HIDDEN, KV_WIDTH]),
    q8(`blk.${i}.attn_v.weight`, [HIDDEN, KV_WIDTH]),
    q8(`blk.${i}.attn_output.weight`, [HIDDEN, HIDDEN]),
    { name: `blk.${i}.ffn_norm.weight`, shape: [HIDDEN], ggmlType: GGML.f32, bytes: HIDDEN * 4 },
    q8(`blk.${i}.ffn_gate.weight`, [HIDDEN, FFN]),
    q8(`blk.${i}.ffn_up.weight`, [HIDDEN, FFN]),
    q8(`blk.${i}.ffn_down.weight`, [FFN, HIDDEN]),
  ];
  return [
    {
      name: "token_embd.weight",
      shape: [HIDDEN, VOCAB],
      ggmlType: GGML.f16,
      bytes: HIDDEN * VOCAB * 2,
    },
    ...layer(0),
    ...layer(1),
    { name: "output_norm.weight", shape: [HIDDEN], ggmlType: GGML.f32, bytes: HIDDEN * 4 },
    q8("output.weight", [HIDDEN, VOCAB]),
  ];
}

const TINY_LLAMA: Record<string, Value> = {
  "general.architecture": { type: "string", value: "llama" },
  "general.file_type": { type: "uint32", value: 7 },
  "llama.block_count": { type: "uint32", value: 2 },
  "llama.context_length": { type: "uint32", value: 4096 },
  "llama.embedding_length": { type: "uint32", value: HIDDEN },
  "llama.feed_forward_length": { type: "uint32", value: FFN },
  "llama.attention.head_count": { type: "uint32", value: 4 },
  "llama.attention.head_count_kv": { type: "uint32", value: 2 },
  "llama.attention.layer_norm_rms_epsilon": { type: "float32", value: 1e-5 },
};

/** A source over a header, claiming `sizeBytes` in all and counting what is read. */
function sourceOf(header: Uint8Array, sizeBytes: number): GgufByteSource & { bytesRead: number } {
  const source = {
    sizeBytes,
    bytesRead: 0,
    read: (offset: number, length: number) => {
      source.bytesRead += length;
      const bytes = new Uint8Array(length);
      bytes.set(header.subarray(offset, offset + length));
      return Promise.resolve(bytes);
    },
  };
  return source;
}

async function describedGguf(source: GgufByteSource): Promise<ModelDescription> {
  const result = await describeGgufSource(source);
  if (!result.ok) throw new Error(result.errors.join("; "));
  return result.description;
}

describe("describeGgufSource", () => {
  const tensors = tinyLlamaTensors();
  const dataBytes = tensors.reduce((sum, t) => sum + Math.ceil(t.bytes / 32) * 32, 0);
  const header = ggufHeader(TINY_LLAMA, tensors);

  it("reads the shape from the architecture's keys and the weights from the tensor list", async () => {
    const model = await describedGguf(sourceOf(header, header.length + dataBytes));
    expect(model).toMatchObject({
      source: "gguf",
      architecture: "llama",
      layers: 2,
      hiddenSize: HIDDEN,
      attentionHeads: 4,
      kvHeads: 2,
      headDim: 16,
      vocabSize: VOCAB,
      contextTokensTrained: 4096,
      ggufFileType: "Q8_0",
      tiedEmbeddings: false,
    });
    const elements = tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0);
    expect(model.parameters.total).toBe(elements);
    expect(model.weightBytesExact).toBe(tensors.reduce((sum, t) => sum + t.bytes, 0));
  });

  it("reads only the header of a 40 GB file", async () => {
    const source = sourceOf(header, 40e9);
    await describedGguf(source);
    expect(source.bytesRead).toBeLessThan(5e6);
  });

  it("refuses a file that is not a GGUF", async () => {
    const result = await describeGgufSource(sourceOf(new TextEncoder().encode("{}"), 2));
    expect(result).toEqual({
      ok: false,
      errors: [expect.stringContaining("not a readable GGUF file")],
    });
  });

  it("names a missing architecture key", async () => {
    const { ["llama.block_count"]: _dropped, ...rest } = TINY_LLAMA;
    const broken = ggufHeader(rest, tensors);
    const result = await describeGgufSource(sourceOf(broken, broken.length + dataBytes));
    expect(result).toEqual({
      ok: false,
      errors: ["the GGUF header has no llama.block_count (the number of layers)"],
    });
  });
});
