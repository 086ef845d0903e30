// One worker running queued prompts in order, as ComfyUI's PromptQueue and executor do: a prompt
// takes `stepMs` per sampler step, then its pictures are kept for /view and its outcome written to
// the history — `success`, or `error` with ComfyUI's `execution_interrupted` / `execution_error`.
import { randomUUID } from "node:crypto";
import { drawOutput, ExecutionError, type ImageRef, type Picture } from "./pictures";
import { SAMPLER_STEPS_INPUT } from "./node-classes";
import type { Graph } from "./validate";

export interface QueueItem {
  number: number;
  promptId: string;
  graph: Graph;
  extraData: Record<string, unknown>;
  outputs: string[];
}

type Message = [string, Record<string, unknown>];
export interface HistoryEntry {
  prompt: [number, string, Graph, Record<string, unknown>, string[]];
  outputs: Record<string, { images: ImageRef[] }>;
  status: { status_str: "success" | "error"; completed: boolean; messages: Message[] };
  meta: Record<
    string,
    { node_id: string; display_node: string; parent_node: null; real_node_id: string }
  >;
}

/** Older entries (and their pictures) are dropped past this many, so a long run stays bounded. */
const HISTORY_MAX = 1000;

export type PromptQueue = ReturnType<typeof createPromptQueue>;

export function createPromptQueue(options: { stepMs: number; nowMs?: () => number }) {
  const nowMs = options.nowMs ?? Date.now;
  const pending: QueueItem[] = [];
  const history = new Map<string, HistoryEntry>();
  const pictures = new Map<string, Picture>();
  const counters = new Map<string, number>();
  let running: { item: QueueItem; timer: NodeJS.Timeout; startedMs: number } | undefined;
  let nextNumber = 0;

  const pictureKey = (ref: ImageRef): string => `${ref.type}\0${ref.subfolder}\0${ref.filename}`;

  function record(
    item: QueueItem,
    outputs: HistoryEntry["outputs"],
    end: Message | undefined,
  ): void {
    const started: Message = [
      "execution_start",
      { prompt_id: item.promptId, timestamp: running?.startedMs ?? nowMs() },
    ];
    const isSuccess = end === undefined;
    const last: Message = end ?? [
      "execution_success",
      { prompt_id: item.promptId, timestamp: nowMs() },
    ];
    history.set(item.promptId, {
      prompt: [item.number, item.promptId, item.graph, item.extraData, item.outputs],
      outputs,
      status: {
        status_str: isSuccess ? "success" : "error",
        completed: isSuccess,
        messages: [started, isSuccess ? [last[0], last[1]] : last],
      },
      meta: Object.fromEntries(
        Object.keys(outputs).map((id) => [
          id,
          { node_id: id, display_node: id, parent_node: null, real_node_id: id },
        ]),
      ),
    });
    while (history.size > HISTORY_MAX) forget(history.keys().next().value ?? "");
  }

  function forget(promptId: string): void {
    const entry = history.get(promptId);
    history.delete(promptId);
    for (const output of Object.values(entry?.outputs ?? {}))
      for (const image of output.images) pictures.delete(pictureKey(image));
  }

  function finish(item: QueueItem): void {
    const outputs: HistoryEntry["outputs"] = {};
    let failure: Message | undefined;
    try {
      for (const id of item.outputs) {
        const drawn = drawOutput(item.graph, id, (key) => {
          const next = (counters.get(key) ?? 0) + 1;
          counters.set(key, next);
          return next;
        });
        for (const picture of drawn) pictures.set(pictureKey(picture), picture);
        outputs[id] = {
          images: drawn.map(({ filename, subfolder, type }) => ({ filename, subfolder, type })),
        };
      }
    } catch (error) {
      if (!(error instanceof ExecutionError)) throw error;
      failure = [
        "execution_error",
        {
          prompt_id: item.promptId,
          exception_message: error.message,
          exception_type: "RuntimeError",
          timestamp: nowMs(),
        },
      ];
    }
    record(item, failure ? {} : outputs, failure);
    running = undefined;
    startNext();
  }

  function startNext(): void {
    const item = pending.shift();
    if (item === undefined || running !== undefined) return;
    const durationMs = Math.max(1, stepsOf(item.graph)) * options.stepMs;
    running = { item, startedMs: nowMs(), timer: setTimeout(() => finish(item), durationMs) };
  }

  return {
    enqueue(
      graph: Graph,
      outputs: string[],
      extraData: Record<string, unknown>,
      wanted: { promptId?: string; isFront?: boolean },
    ): QueueItem {
      const promptId = wanted.promptId ?? randomUUID();
      const item: QueueItem = {
        number: wanted.isFront ? -nextNumber : nextNumber,
        promptId,
        graph,
        extraData,
        outputs,
      };
      nextNumber += 1;
      if (wanted.isFront) pending.unshift(item);
      else pending.push(item);
      if (running === undefined) startNext();
      return item;
    },
    running: (): QueueItem | undefined => running?.item,
    pending: (): readonly QueueItem[] => pending,
    /** Takes pending prompts off the queue; the running one keeps running, as on ComfyUI. */
    delete(promptIds: readonly string[]): void {
      const doomed = new Set(promptIds);
      pending.splice(0, pending.length, ...pending.filter((item) => !doomed.has(item.promptId)));
    },
    clear(): void {
      pending.length = 0;
    },
    /** Stops the running prompt; with a prompt id, only when that one is running. */
    interrupt(promptId?: string): boolean {
      if (running === undefined || (promptId !== undefined && promptId !== running.item.promptId))
        return false;
      const { item, timer } = running;
      clearTimeout(timer);
      record(item, {}, [
        "execution_interrupted",
        {
          prompt_id: item.promptId,
          node_id: item.outputs[0] ?? "",
          node_type: "KSampler",
          executed: [],
          timestamp: nowMs(),
        },
      ]);
      running = undefined;
      startNext();
      return true;
    },
    history: (promptId: string): HistoryEntry | undefined => history.get(promptId),
    allHistory: (): ReadonlyMap<string, HistoryEntry> => history,
    forget,
    clearHistory(): void {
      for (const id of [...history.keys()]) forget(id);
    },
    picture: (ref: ImageRef): Picture | undefined => pictures.get(pictureKey(ref)),
    close(): void {
      if (running) clearTimeout(running.timer);
      running = undefined;
      pending.length = 0;
    },
  };
}

function stepsOf(graph: Graph): number {
  let steps = 0;
  for (const node of Object.values(graph)) {
    const input = SAMPLER_STEPS_INPUT[node.class_type];
    const value = input === undefined ? undefined : node.inputs[input];
    if (typeof value === "number") steps += value;
  }
  return steps;
}
