// Deep equality over what decoded frames and node records are made of: plain records, arrays
// and primitives (bigints included). Both the kept node records and the heartbeat values use it
// to keep an object that came out equal to the one before instead of the new one.

/** Deep equality over plain records, arrays and primitives. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let at = 0; at < a.length; at += 1) if (!sameValue(a[at], b[at])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  let count = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !sameValue(x[key], y[key])) return false;
    count += 1;
  }
  return count === Object.keys(y).length;
}
