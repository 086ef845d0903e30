// Waiting on queued graphs: `/history/{id}` polled with a growing pause, up to the request's
// time limit; then each saved picture fetched from `/view`. A client that leaves, or a limit that
// passes, takes the graphs back: those still waiting off the queue, the running one interrupted.
import { setTimeout as sleep } from "node:timers/promises";
import { messageOf } from "@llmgw/domain";
import { GatewayError } from "../errors";
import { comfyJson, comfyView, type ComfyTarget, type ImageRef } from "./comfy-client";
import { historyState, queueStanding } from "./comfy-answers";

const FIRST_POLL_MS = 100;
const POLL_MAX_MS = 1_000;
/** Taking graphs back must not hang on a ComfyUI that stopped answering. */
const CANCEL_TIMEOUT_MS = 5_000;

export interface WaitJob {
  model: string;
  target: ComfyTarget;
  promptIds: readonly string[];
  signal: AbortSignal;
  deadlineMs: number;
  nowMs(): number;
}

/** The pictures of every graph, in the order queued; throws a GatewayError, or the abort. */
export async function awaitPictures(job: WaitJob): Promise<Buffer[]> {
  const found = new Map<string, ImageRef[]>();
  let pauseMs = FIRST_POLL_MS;
  while (found.size < job.promptIds.length) {
    for (const id of job.promptIds) {
      if (found.has(id)) continue;
      const images = await pollOnce(job, id);
      if (images) found.set(id, images);
    }
    if (found.size === job.promptIds.length) break;
    if (job.nowMs() + pauseMs > job.deadlineMs)
      throw new GatewayError(
        504,
        `model "${job.model}"'s workflow did not finish in time; it was taken off the queue`,
        "server_error",
        "workflow_timeout",
      );
    await sleep(pauseMs, undefined, { signal: job.signal });
    pauseMs = Math.min(pauseMs * 2, POLL_MAX_MS);
  }
  const refs = job.promptIds.flatMap((id) => found.get(id) ?? []);
  return Promise.all(refs.map((ref) => fetchPicture(job, ref)));
}

async function pollOnce(job: WaitJob, id: string): Promise<ImageRef[] | null> {
  const answer = await comfyJson(
    job.target,
    "GET",
    `/history/${encodeURIComponent(id)}`,
    undefined,
    job.signal,
  );
  if (answer.kind === "unreachable") {
    job.signal.throwIfAborted();
    throw new GatewayError(
      502,
      `model "${job.model}"'s ComfyUI stopped answering while the workflow ran`,
      "server_error",
      "upstream_interrupted",
    );
  }
  if (answer.status !== 200) return null;
  const state = historyState(answer.json, id);
  if (state.state === "waiting") return null;
  if (state.state === "failed")
    throw new GatewayError(
      502,
      `model "${job.model}"'s workflow failed in ComfyUI at ${state.where}`,
      "server_error",
      "workflow_failed",
    );
  if (state.images.length === 0)
    throw new GatewayError(
      502,
      `model "${job.model}"'s workflow finished without saving a picture`,
      "server_error",
      "workflow_no_images",
    );
  return state.images;
}

async function fetchPicture(job: WaitJob, ref: ImageRef): Promise<Buffer> {
  try {
    return await comfyView(job.target, ref, job.signal);
  } catch (error) {
    job.signal.throwIfAborted();
    throw new GatewayError(
      502,
      `a picture of model "${job.model}" could not be fetched from ComfyUI: ${messageOf(error)}`,
      "server_error",
      "upstream_interrupted",
    );
  }
}

/** Takes the graphs back: waiting ones deleted from the queue, a running one interrupted. */
export async function cancelQueued(
  target: ComfyTarget,
  promptIds: readonly string[],
  log: (line: string) => void,
): Promise<void> {
  if (promptIds.length === 0) return;
  const signal = AbortSignal.timeout(CANCEL_TIMEOUT_MS);
  const queue = await comfyJson(target, "GET", "/queue", undefined, signal);
  // Queue unread: delete them all; deleting one that already finished changes nothing.
  const standing =
    queue.kind === "answer" && queue.status === 200
      ? queueStanding(queue.json, promptIds)
      : { pending: [...promptIds], running: [] };
  const calls = [];
  if (standing.pending.length > 0)
    calls.push(comfyJson(target, "POST", "/queue", { delete: standing.pending }, signal));
  for (const id of standing.running)
    calls.push(comfyJson(target, "POST", "/interrupt", { prompt_id: id }, signal));
  const answers = await Promise.all(calls);
  const failed = answers.filter((a) => a.kind === "unreachable" || a.status >= 400);
  if (failed.length > 0)
    log(
      `gateway: taking workflows ${promptIds.join(", ")} back from ${target.baseUrl} failed; ComfyUI may still run them`,
    );
}
