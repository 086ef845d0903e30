// Seeded randomness for the simulator and a stable hash for names, so a simulated fleet is the
// same fleet on every run with the same seed.
import { createHash } from "node:crypto";

export { seededRandom, type RandomFn } from "@llmgw/domain/seeded-random";

/** Hex SHA-256 of a string; used for identifiers that must not change between runs. */
export function stableHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A 32-bit seed derived from a name, for runs that give no --seed. */
export function seedFromName(name: string): number {
  return Number.parseInt(stableHash(name).slice(0, 8), 16);
}
