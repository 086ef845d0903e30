// Narrowing for a value the code knows is there (an index inside a table it built, a regex group
// that always matches) without a non-null assertion: should that knowledge ever be wrong, the error
// names what was missing instead of a TypeError somewhere further on.

export function must<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}
