// Model allowlists on API keys: exact names or patterns with `*` (any run of characters). An empty
// list allows nothing, so a key made without models opens no model by accident.

export function modelPatternMatches(pattern: string, model: string): boolean {
  if (!pattern.includes("*")) return pattern === model;
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`).test(model);
}

export function modelAllowed(patterns: readonly string[], model: string): boolean {
  return patterns.some((pattern) => modelPatternMatches(pattern, model));
}
