// Narrowing for values the code's own invariants guarantee (a row an INSERT … RETURNING just wrote,
// a regex group that matched): when the invariant breaks, the error names what was missing instead
// of a TypeError about reading a property of undefined.

export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`internal error: ${what} is missing`);
  return value;
}
