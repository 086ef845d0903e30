// Reading ComfyUI's answers: what `POST /prompt` refused and where, how a queued graph stands in
// `/history/{id}`, and which of ours `/queue` holds. ComfyUI's own messages can carry file lists
// and stack traces, so only node ids, node classes and error type codes reach a client.
import type { ImageRef } from "./comfy-client";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const SAFE_WORD = /^[A-Za-z0-9_.:-]{1,64}$/;
const safe = (value: unknown): string | null =>
  typeof value === "string" && SAFE_WORD.test(value) ? value : null;

/** The prompt id of an accepted graph, or null when the answer is not ComfyUI's. */
export function queuedPromptId(json: unknown): string | null {
  return isObject(json) ? safe(json.prompt_id) : null;
}

/**
 * Why ComfyUI refused a graph, naming each node it found wrong with its class and error types:
 * `node 6 (CLIPTextEncode): required_input_missing`. Null when the answer names no node.
 */
export function nodeErrorsSummary(json: unknown): string | null {
  if (!isObject(json)) return null;
  const nodeErrors = json.node_errors;
  const parts: string[] = [];
  if (isObject(nodeErrors))
    for (const [id, entry] of Object.entries(nodeErrors)) {
      if (!isObject(entry)) continue;
      const node = safe(id) ?? "?";
      const className = safe(entry.class_type);
      const errors = Array.isArray(entry.errors) ? entry.errors : [];
      const types = errors.flatMap((error) => (isObject(error) ? (safe(error.type) ?? []) : []));
      const what = types.length > 0 ? [...new Set(types)].join(", ") : "refused";
      parts.push(`node ${node}${className ? ` (${className})` : ""}: ${what}`);
    }
  if (parts.length > 0) return parts.join("; ");
  // A graph refused as a whole (an unknown node class) names its node only in the error's details.
  const error = isObject(json.error) ? json.error : null;
  const type = safe(error?.type);
  if (type === null) return null;
  const node = typeof error?.details === "string" ? NODE_DETAILS.exec(error.details) : null;
  if (!node) return `the workflow was refused: ${type}`;
  const missing = typeof error?.message === "string" ? MISSING_CLASS.exec(error.message) : null;
  return `node ${node[1] ?? "?"}${missing ? ` (${missing[1] ?? "?"}, unknown to this ComfyUI)` : ""}: ${type}`;
}

const NODE_DETAILS = /^Node ID '#([A-Za-z0-9_.:-]{1,64})'$/;
const MISSING_CLASS = /^Cannot execute because node ([A-Za-z0-9_.+-]{1,64}) does not exist\.$/;

export type HistoryState =
  { state: "waiting" } | { state: "done"; images: ImageRef[] } | { state: "failed"; where: string };

function imageRefs(outputs: unknown): ImageRef[] {
  if (!isObject(outputs)) return [];
  const refs: ImageRef[] = [];
  for (const output of Object.values(outputs)) {
    const images = isObject(output) && Array.isArray(output.images) ? output.images : [];
    for (const image of images) {
      if (!isObject(image) || typeof image.filename !== "string") continue;
      // Previews are ComfyUI's temporary pictures; only SaveImage's outputs are the answer.
      if (image.type !== "output") continue;
      const subfolder = typeof image.subfolder === "string" ? image.subfolder : "";
      refs.push({ filename: image.filename, subfolder, type: "output" });
    }
  }
  return refs;
}

function failedNode(messages: unknown): string {
  const list = Array.isArray(messages) ? messages : [];
  for (const message of list) {
    if (!Array.isArray(message) || message[0] !== "execution_error" || !isObject(message[1]))
      continue;
    const node = safe(message[1].node_id);
    const type = safe(message[1].node_type);
    if (node !== null) return `node ${node}${type ? ` (${type})` : ""}`;
  }
  return "an unnamed node";
}

/** How the graph `id` stands in a `/history/{id}` answer. */
export function historyState(json: unknown, id: string): HistoryState {
  const entry = isObject(json) ? json[id] : undefined;
  if (!isObject(entry)) return { state: "waiting" };
  const status = isObject(entry.status) ? entry.status : {};
  if (status.status_str === "error") return { state: "failed", where: failedNode(status.messages) };
  if (status.completed === false) return { state: "waiting" };
  return { state: "done", images: imageRefs(entry.outputs) };
}

/** Which of `ids` the `/queue` answer has waiting and which running. */
export function queueStanding(json: unknown, ids: readonly string[]) {
  const idsIn = (list: unknown): string[] =>
    (Array.isArray(list) ? list : []).flatMap((item) =>
      Array.isArray(item) && typeof item[1] === "string" && ids.includes(item[1]) ? [item[1]] : [],
    );
  const queue = isObject(json) ? json : {};
  return { pending: idsIn(queue.queue_pending), running: idsIn(queue.queue_running) };
}
