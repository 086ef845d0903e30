// How a refused definition reads: every issue names its field (`profiles[0].gpu`) and what to
// write there. Messages a schema sets itself are kept; zod's generic ones ("Invalid input") are
// replaced here, so a field without its own message still says what it wants.
import type { z } from "zod";

/** `profiles[0].args[2]` from zod's path, so an error points where a person would look. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`,
    )
    .join("");
}

const TYPE_WORDS: Record<string, string> = {
  string: "text in quotes",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a map of fields ({…})",
  array: "a list ([…])",
  record: "a map of names to values ({…})",
};

function describeInput(input: unknown): string {
  switch (typeof input) {
    case "string":
      return `"${input.length > 40 ? `${input.slice(0, 40)}…` : input}"`;
    case "object":
      if (input === null) return "null";
      return Array.isArray(input) ? "a list" : "a map";
    case "symbol":
      return input.toString();
    default:
      return String(input);
  }
}

function sizeLimit(issue: { origin: string }, bound: string, limit: number | bigint): string {
  if (issue.origin === "array" || issue.origin === "set") return `${bound} ${limit} entries`;
  if (issue.origin === "string") return `${bound} ${limit} characters`;
  return `${bound} ${limit}`;
}

/** Zod's generic issues, said with what to write instead. */
export const catalogErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type": {
      const wanted = TYPE_WORDS[issue.expected] ?? issue.expected;
      if (issue.input === undefined) return `this field is required; write ${wanted}`;
      return `${describeInput(issue.input)} is not ${wanted}; write ${wanted}`;
    }
    case "too_small":
      return `write ${sizeLimit(issue, issue.inclusive === false ? "more than" : "at least", issue.minimum)}`;
    case "too_big":
      return `write ${sizeLimit(issue, issue.inclusive === false ? "less than" : "at most", issue.maximum)}`;
    case "invalid_value":
      return `write one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "not_multiple_of":
      return `write a multiple of ${issue.divisor}`;
    case "invalid_format":
      return `write a valid ${issue.format}`;
    case "invalid_key":
      return "a name in this map is not allowed; check its spelling";
    default:
      return undefined;
  }
};

/**
 * One line per problem. A union (a gpu is a class or a need) whose input had the type of exactly
 * one of its forms reports that form's problems, which name the field inside it.
 */
export function formatIssues(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "invalid_union") {
    const matching = issue.errors.filter(
      (branch) => !branch.some((inner) => inner.code === "invalid_type" && inner.path.length === 0),
    );
    const [only] = matching;
    if (matching.length === 1 && only !== undefined)
      return only.flatMap((inner) =>
        formatIssues({ ...inner, path: [...issue.path, ...inner.path] }),
      );
  }
  const where = formatIssuePath(issue.path) || "definition";
  if (issue.code === "unrecognized_keys") {
    return [
      `${where}: unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}; remove ${issue.keys.length > 1 ? "them" : "it"} or check the spelling`,
    ];
  }
  return [`${where}: ${issue.message}`];
}
