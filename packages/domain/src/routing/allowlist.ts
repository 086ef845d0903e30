// Model allowlists on API keys: exact names or patterns with `*` (any run of characters). An empty
// list allows nothing, so a key made without models opens no model by accident.

/** Patterns seen, compiled once: every /v1 request checks its key's list. Bounded, oldest out. */
const compiled = new Map<string, RegExp>();
const COMPILED_MAX = 1_000;

function patternRegExp(pattern: string): RegExp {
  let regExp = compiled.get(pattern);
  if (regExp) return regExp;
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  regExp = new RegExp(`^${escaped.join(".*")}$`);
  compiled.set(pattern, regExp);
  if (compiled.size > COMPILED_MAX) compiled.delete(compiled.keys().next().value ?? pattern);
  return regExp;
}

export function modelPatternMatches(pattern: string, model: string): boolean {
  if (!pattern.includes("*")) return pattern === model;
  return patternRegExp(pattern).test(model);
}

export function modelAllowed(patterns: readonly string[], model: string): boolean {
  return patterns.some((pattern) => modelPatternMatches(pattern, model));
}
