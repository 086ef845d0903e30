// Deterministic randomness: fault dice from a seed, and content (text, vectors, pictures) from a
// hash of the request, so the same input always gets the same answer.
import { createHash } from "node:crypto";

export { seededRandom } from "@llmgw/domain/seeded-random";

/** A 32-bit seed from any text. */
export function hashSeed(text: string): number {
  return createHash("sha256").update(text, "utf8").digest().readUInt32LE(0);
}
