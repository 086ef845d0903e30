// Checks a prompt (ComfyUI's API-format graph: node id → {class_type, inputs}) the way ComfyUI does
// before queueing it, and answers in ComfyUI's shapes: a prompt-level `error`, or per-node
// `node_errors` naming each bad input, so a client written against ComfyUI reads them unchanged.
import { isFilesInput, NODE_CLASSES, type InputSpec } from "./node-classes";

interface GraphNode {
  class_type: string;
  inputs: Record<string, unknown>;
}
export type Graph = Record<string, GraphNode>;
/** Lists a model folder's files; undefined accepts any file name (a simulator with no models). */
type ListFiles = ((folder: string) => string[]) | undefined;

interface InputError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}
type NodeErrors = Record<
  string,
  { errors: InputError[]; dependent_outputs: string[]; class_type: string }
>;

export type Validation =
  | { ok: true; graph: Graph; outputs: string[] }
  | { ok: false; error: InputError; nodeErrors: NodeErrors };

const promptError = (type: string, message: string, details = ""): Validation => ({
  ok: false,
  error: { type, message, details, extra_info: {} },
  nodeErrors: {},
});

function isLink(value: unknown): value is [string, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[1] === "number";
}

export function validatePrompt(prompt: unknown, listFiles: ListFiles): Validation {
  if (typeof prompt !== "object" || prompt === null || Array.isArray(prompt))
    return promptError(
      "no_prompt",
      "No prompt provided",
      'send {"prompt": {node id: {class_type, inputs}}}',
    );
  const graph: Graph = {};
  for (const [id, node] of Object.entries(prompt)) {
    const classType = (node as { class_type?: unknown } | null)?.class_type;
    if (typeof classType !== "string")
      return promptError(
        "invalid_prompt",
        "Cannot execute because a node is missing the class_type property.",
        `Node ID '#${id}'`,
      );
    if (!(classType in NODE_CLASSES))
      return promptError(
        "invalid_prompt",
        `Cannot execute because node ${classType} does not exist.`,
        `Node ID '#${id}'`,
      );
    const inputs = (node as { inputs?: unknown }).inputs;
    graph[id] = {
      class_type: classType,
      inputs:
        typeof inputs === "object" && inputs !== null ? (inputs as Record<string, unknown>) : {},
    };
  }
  const outputs = Object.keys(graph).filter(
    (id) => NODE_CLASSES[graph[id]?.class_type ?? ""]?.isOutputNode,
  );
  if (outputs.length === 0) return promptError("prompt_no_outputs", "Prompt has no outputs");
  const nodeErrors: NodeErrors = {};
  for (const output of outputs) {
    for (const id of upstreamOf(graph, output)) {
      const node = graph[id];
      if (node === undefined) continue;
      const errors = nodeInputErrors(graph, node, listFiles);
      if (errors.length === 0) continue;
      const entry = (nodeErrors[id] ??= {
        errors,
        dependent_outputs: [],
        class_type: node.class_type,
      });
      entry.dependent_outputs.push(output);
    }
  }
  if (Object.keys(nodeErrors).length > 0)
    return {
      ok: false,
      error: {
        type: "prompt_outputs_failed_validation",
        message: "Prompt outputs failed validation",
        details: "",
        extra_info: {},
      },
      nodeErrors,
    };
  return { ok: true, graph, outputs };
}

/** The node and every node it reads from, each once. */
export function upstreamOf(graph: Graph, start: string): string[] {
  const seen = new Set<string>();
  const pending = [start];
  for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
    if (seen.has(id)) continue;
    seen.add(id);
    for (const value of Object.values(graph[id]?.inputs ?? {}))
      if (isLink(value) && String(value[0]) in graph) pending.push(String(value[0]));
  }
  return [...seen];
}

function nodeInputErrors(graph: Graph, node: GraphNode, listFiles: ListFiles): InputError[] {
  const nodeClass = NODE_CLASSES[node.class_type];
  if (nodeClass === undefined) return [];
  const errors: InputError[] = [];
  for (const [name, spec] of Object.entries(nodeClass.required)) {
    const value = node.inputs[name];
    const error =
      value === undefined
        ? inputError("required_input_missing", "Required input is missing", name, name)
        : isLink(value)
          ? linkError(graph, name, value, spec)
          : valueError(name, value, spec, listFiles);
    if (error) errors.push(error);
  }
  return errors;
}

function inputError(type: string, message: string, details: string, inputName: string): InputError {
  return { type, message, details, extra_info: { input_name: inputName } };
}

function linkError(
  graph: Graph,
  name: string,
  [from, slot]: [string, number],
  spec: InputSpec,
): InputError | undefined {
  const source = graph[String(from)];
  if (source === undefined)
    return inputError(
      "bad_linked_input",
      "Bad linked input, must be a length-2 list of [node_id, slot_index]",
      `${name}: node ${from} is not in the prompt`,
      name,
    );
  const produced = NODE_CLASSES[source.class_type]?.output[slot];
  const head = isFilesInput(spec) ? undefined : spec[0];
  const wanted = typeof head === "string" ? head : undefined;
  if (wanted !== undefined && produced !== wanted && !["INT", "FLOAT", "STRING"].includes(wanted))
    return inputError(
      "return_type_mismatch",
      "Return type mismatch between linked nodes",
      `${name}, received_type(${produced ?? "nothing"}) mismatch input_type(${wanted})`,
      name,
    );
  return undefined;
}

function valueError(
  name: string,
  value: unknown,
  spec: InputSpec,
  listFiles: ListFiles,
): InputError | undefined {
  if (isFilesInput(spec) && listFiles === undefined)
    return typeof value === "string"
      ? undefined
      : inputError(
          "invalid_input_type",
          "Failed to convert an input value to a STRING value",
          `${name}, ${JSON.stringify(value)}`,
          name,
        );
  const choices = isFilesInput(spec)
    ? (listFiles?.(spec.files) ?? [])
    : Array.isArray(spec[0])
      ? (spec[0] as readonly string[])
      : undefined;
  if (choices !== undefined) {
    if (choices.includes(String(value))) return undefined;
    return inputError(
      "value_not_in_list",
      "Value not in list",
      `${name}: '${String(value)}' not in ${JSON.stringify(choices)}`,
      name,
    );
  }
  const [type, options = {}] = spec as readonly [string, Record<string, unknown>?];
  if (type === "STRING")
    return typeof value === "string"
      ? undefined
      : inputError(
          "invalid_input_type",
          "Failed to convert an input value to a STRING value",
          `${name}, ${JSON.stringify(value)}`,
          name,
        );
  if (type !== "INT" && type !== "FLOAT")
    return inputError(
      "required_input_missing",
      "Required input is missing",
      `${name} must be a link to a ${type}`,
      name,
    );
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    (type === "INT" && !Number.isInteger(value))
  )
    return inputError(
      "invalid_input_type",
      `Failed to convert an input value to a ${type} value`,
      `${name}, ${JSON.stringify(value)}`,
      name,
    );
  const { min, max } = options as { min?: number; max?: number };
  if (min !== undefined && value < min)
    return inputError(
      "value_smaller_than_min",
      `Value ${value} smaller than min of ${min}`,
      `${name}`,
      name,
    );
  if (max !== undefined && value > max)
    return inputError(
      "value_bigger_than_max",
      `Value ${value} bigger than max of ${max}`,
      `${name}`,
      name,
    );
  return undefined;
}
