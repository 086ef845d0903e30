// A WebSocket message as ws hands it over (one buffer, fragments, or an ArrayBuffer), as the bytes
// the protobuf decoder reads, without a copy where ws gave one buffer.
import type { RawData } from "ws";

export function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
