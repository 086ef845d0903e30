// A small GGUF (version 3) writer: metadata, tensor infos and f32 tensor data, little-endian, each
// tensor aligned to 32 bytes as llama.cpp expects. @huggingface/gguf reads GGUF and can serialise
// a header's metadata, but not tensor infos nor data, so a whole file is written here.

const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian uint32
const GGUF_VERSION = 3;
const ALIGNMENT_BYTES = 32;
const GGML_TYPE_F32 = 0;

/** GGUF value types (gguf.md). */
const VALUE = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;

export type GgufValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: readonly string[] }
  | { type: "f32[]"; value: readonly number[] }
  | { type: "i32[]"; value: readonly number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: the first dimension is the one that varies fastest (a row's length). */
  dims: readonly number[];
  data: Float32Array;
}

/** Grows as it is written; GGUF files made here are small (a few hundred kilobytes). */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const bigger = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }
  u32(value: number): void {
    this.room(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }
  i32(value: number): void {
    this.room(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }
  u64(value: number): void {
    this.room(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(value), this.length);
  }
  f32(value: number): void {
    this.room(4);
    this.length = this.buffer.writeFloatLE(value, this.length);
  }
  bytes(value: Uint8Array): void {
    this.room(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }
  string(value: string): void {
    const bytes = Buffer.from(value, "utf8");
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(padding));
  }
  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case "u32":
      return writeTyped(out, VALUE.UINT32, () => out.u32(value.value));
    case "i32":
      return writeTyped(out, VALUE.INT32, () => out.i32(value.value));
    case "f32":
      return writeTyped(out, VALUE.FLOAT32, () => out.f32(value.value));
    case "bool":
      return writeTyped(out, VALUE.BOOL, () => out.bytes(Uint8Array.of(value.value ? 1 : 0)));
    case "string":
      return writeTyped(out, VALUE.STRING, () => out.string(value.value));
    case "string[]":
      return writeArray(out, VALUE.STRING, value.value, (item) => out.string(item));
    case "f32[]":
      return writeArray(out, VALUE.FLOAT32, value.value, (item) => out.f32(item));
    case "i32[]":
      return writeArray(out, VALUE.INT32, value.value, (item) => out.i32(item));
  }
}

function writeTyped(out: ByteWriter, type: number, body: () => void): void {
  out.u32(type);
  body();
}

function writeArray<T>(
  out: ByteWriter,
  itemType: number,
  items: readonly T[],
  writeItem: (item: T) => void,
): void {
  out.u32(VALUE.ARRAY);
  out.u32(itemType);
  out.u64(items.length);
  for (const item of items) writeItem(item);
}

/** The whole file: header, metadata, tensor infos, padding, then each tensor's f32 data. */
export function writeGguf(
  metadata: ReadonlyMap<string, GgufValue>,
  tensors: readonly GgufTensor[],
): Buffer {
  const out = new ByteWriter();
  out.u32(GGUF_MAGIC);
  out.u32(GGUF_VERSION);
  out.u64(tensors.length);
  out.u64(metadata.size);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offsetBytes = 0;
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((product, dim) => product * dim, 1);
    if (count !== tensor.data.length)
      throw new Error(
        `tensor ${tensor.name}: dims ${tensor.dims.join("x")} hold ${count} values, data has ${tensor.data.length}`,
      );
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offsetBytes);
    offsetBytes += alignUp(tensor.data.byteLength);
  }
  out.padTo(ALIGNMENT_BYTES);
  for (const tensor of tensors) {
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(ALIGNMENT_BYTES);
  }
  return out.result();
}

function alignUp(bytes: number): number {
  return Math.ceil(bytes / ALIGNMENT_BYTES) * ALIGNMENT_BYTES;
}
