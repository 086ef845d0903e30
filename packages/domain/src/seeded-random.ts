// Seeded randomness for simulations and tests (mulberry32): small, fast and repeatable, so a
// failing seed replays exactly. Never for secrets.

export type RandomFn = () => number;

/** Returns a generator of numbers in [0, 1) determined entirely by `seed`. */
export function seededRandom(seed: number): RandomFn {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
