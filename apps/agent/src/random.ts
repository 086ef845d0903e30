// Seeded randomness for the simulator and a stable hash for names, so a simulated fleet is the
// same fleet on every run with the same seed.
import { createHash } from "node:crypto";

export type RandomFn = () => number;

/** mulberry32: small, fast and good enough for a simulation; returns numbers in [0, 1). */
export function seededRandom(seed: number): RandomFn {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hex SHA-256 of a string; used for identifiers that must not change between runs. */
export function stableHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A 32-bit seed derived from a name, for runs that give no --seed. */
export function seedFromName(name: string): number {
  return Number.parseInt(stableHash(name).slice(0, 8), 16);
}
