// ComfyUI workflows in its API format (the graph `POST /prompt` takes: node id → {class_type,
// inputs}), filled from a template with the request's values. Values are placed into the parsed
// graph, never spliced into JSON text, so a prompt with quotes, braces or newlines stays one
// string and cannot add or change a node.

/** One node of an API-format graph; an input is a value or a link `[nodeId, outputIndex]`. */
export interface WorkflowNode {
  class_type: string;
  inputs: Record<string, unknown>;
  _meta?: unknown;
}

export type WorkflowGraph = Record<string, WorkflowNode>;

/** What a template may ask for: `{{prompt}}`, `{{width}}`, `{{height}}`, `{{seed}}`, `{{steps}}`. */
export interface WorkflowValues {
  prompt: string;
  width: number;
  height: number;
  seed: number;
  steps: number;
}

export const WORKFLOW_PLACEHOLDERS: readonly (keyof WorkflowValues)[] = [
  "prompt",
  "width",
  "height",
  "seed",
  "steps",
];

export type WorkflowCheck = { ok: true; graph: WorkflowGraph } | { ok: false; why: string };

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/**
 * Quotes every placeholder that stands where a JSON value goes (`"width": {{width}}`), so the
 * template parses as JSON; placeholders inside strings are left for the walk over the parsed graph.
 */
function quoteBarePlaceholders(text: string): string {
  let out = "";
  let isInString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (isInString) {
      out += char;
      if (char === "\\") {
        out += text.charAt(at + 1);
        at += 1;
      } else if (char === '"') isInString = false;
      continue;
    }
    if (char === '"') isInString = true;
    if (char === "{" && text.charAt(at + 1) === "{") {
      const end = text.indexOf("}}", at);
      if (end !== -1) {
        out += JSON.stringify(text.slice(at, end + 2));
        at = end + 1;
        continue;
      }
    }
    out += char;
  }
  return out;
}

/** The placeholders a template names that are not among the five it may use. */
function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(WORKFLOW_PLACEHOLDERS);
  const names = [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? "");
  return [...new Set(names.filter((name) => !known.has(name)))];
}

/** An API-format graph with at least one SaveImage, or why the value is not one. */
export function checkApiGraph(value: unknown): WorkflowCheck {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, why: "the workflow is not a JSON object of nodes (ComfyUI's API format)" };
  if ("nodes" in value && "links" in value)
    return {
      ok: false,
      why: "the workflow is in ComfyUI's UI format, not its API format; export it with Workflow → Export (API)",
    };
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return { ok: false, why: "the workflow has no nodes" };
  for (const [id, node] of entries) {
    const candidate = node as Partial<WorkflowNode> | null;
    const isNode =
      typeof candidate === "object" &&
      candidate !== null &&
      typeof candidate.class_type === "string" &&
      typeof candidate.inputs === "object" &&
      candidate.inputs !== null &&
      !Array.isArray(candidate.inputs);
    if (!isNode)
      return {
        ok: false,
        why: `node "${id}" is not an API-format node ({"class_type": …, "inputs": {…}}); export the workflow with Workflow → Export (API)`,
      };
  }
  const graph = value as WorkflowGraph;
  if (!Object.values(graph).some((node) => node.class_type === "SaveImage"))
    return {
      ok: false,
      why: "the workflow has no SaveImage node, so it would make no picture to return; add one",
    };
  return { ok: true, graph };
}

/** Checks a template's text: valid JSON once placeholders are quoted, known placeholders, API format. */
export function parseWorkflowTemplate(text: string): WorkflowCheck {
  const unknown = unknownPlaceholders(text);
  if (unknown.length > 0)
    return {
      ok: false,
      why: `the workflow names unknown placeholder${unknown.length === 1 ? "" : "s"} ${unknown.map((name) => `{{${name}}}`).join(", ")}; the known ones are ${WORKFLOW_PLACEHOLDERS.map((name) => `{{${name}}}`).join(", ")}`,
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(quoteBarePlaceholders(text));
  } catch (error) {
    return {
      ok: false,
      why: `the workflow is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return checkApiGraph(parsed);
}

/** A string that is one placeholder becomes its value (a number stays a number); others are filled in. */
function fillValue(value: unknown, values: WorkflowValues): unknown {
  if (typeof value === "string") {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) return values[whole[1] as keyof WorkflowValues];
    return value.replace(PLACEHOLDER, (_match, name: string) =>
      String(values[name as keyof WorkflowValues]),
    );
  }
  if (Array.isArray(value)) return value.map((item) => fillValue(item, values));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillValue(item, values)]),
    );
  return value;
}

/** A copy of a checked template with the request's values in place. */
export function fillWorkflow(template: WorkflowGraph, values: WorkflowValues): WorkflowGraph {
  return fillValue(template, values) as WorkflowGraph;
}
