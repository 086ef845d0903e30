// Deterministic randomness: fault dice from a seed, and content (text, vectors, pictures) from a
// hash of the request, so the same input always gets the same answer.
import { createHash } from "node:crypto";

/** mulberry32: small, fast, and plenty for dice and filler. Returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from any text. */
export function hashSeed(text: string): number {
  return createHash("sha256").update(text, "utf8").digest().readUInt32LE(0);
}
