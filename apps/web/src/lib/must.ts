// Narrows a value that the surrounding code guarantees is there (an index inside its own array, a
// key just set). If that guarantee ever breaks, the error names what was missing instead of a
// later "cannot read properties of undefined".

export function must<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`internal: ${what} is missing`);
  return value;
}
