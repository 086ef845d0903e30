// `/v1/images/generations` for a model ComfyUI serves (its replicas' gates, or an external
// ComfyUI server): the request becomes one graph per picture, queued on one endpoint, waited on,
// and its pictures returned inline in OpenAI's shape. A client that leaves takes its graphs back.
import { randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import {
  imageWorkflows,
  isBuiltinWorkflow,
  messageOf,
  parseImageRequest,
  type ComfyuiSettings,
  type ModelDefinition,
  type WorkflowGraph,
} from "@llmgw/domain";
import type { ServerResponse } from "node:http";
import { abandon, settle, type ForwardDeps } from "../attempts";
import { GatewayError } from "../errors";
import type { ForwardOutcome } from "../forward";
import { queueGraphs } from "./comfy-queue";
import { awaitPictures, cancelQueued } from "./comfy-wait";

/** How long a request waits for its pictures: the upstream agent's limit for an answer. */
const IMAGE_WAIT_MS = 300_000;
const WORKFLOW_FILE_BYTES_MAX = 1024 * 1024;
const SEED_MAX = 2 ** 32;

export interface ComfyImageDeps extends ForwardDeps {
  /** Reads a workflow file named by a model's comfyui block (fs by default). */
  readWorkflowFile?(path: string): Promise<string>;
  imageWaitMs?: number;
}

export interface ComfyImageJob {
  model: string;
  definition: ModelDefinition;
  raw: Buffer;
  requestId: string;
  signal: AbortSignal;
}

export async function serveComfyImages(
  deps: ComfyImageDeps,
  job: ComfyImageJob,
  res: ServerResponse,
  noEndpoint: () => GatewayError,
): Promise<ForwardOutcome> {
  const request = parseImageRequest(
    JSON.parse(job.raw.toString("utf8")) as Record<string, unknown>,
    () => randomInt(SEED_MAX),
  );
  if (!request.ok)
    throw new GatewayError(400, request.why, "invalid_request_error", `invalid_${request.field}`);
  const settings: ComfyuiSettings = job.definition.comfyui ?? { workflow: "flux-schnell" };
  const graphs = await graphsFor(deps, job.model, settings, request.request);
  const run = await queueGraphs(deps, job, graphs, noEndpoint);
  let pictures: Buffer[];
  try {
    pictures = await awaitPictures({
      model: job.model,
      target: run.target,
      promptIds: run.promptIds,
      signal: job.signal,
      deadlineMs: deps.nowMs() + (deps.imageWaitMs ?? IMAGE_WAIT_MS),
      nowMs: deps.nowMs,
    });
  } catch (error) {
    await cancelQueued(run.target, run.promptIds, deps.log);
    if (job.signal.aborted) {
      abandon(run.endpoint);
      return { status: 499, replicaId: run.endpoint.id, usage: null, firstByteAtMs: null };
    }
    const isEndpointFault = error instanceof GatewayError && error.code === "upstream_interrupted";
    settle(deps, run.endpoint, isEndpointFault ? "connection-error" : 200);
    throw error;
  }
  settle(deps, run.endpoint, 200);
  const body = JSON.stringify({
    created: Math.floor(deps.nowMs() / 1_000),
    data: pictures.map((picture) => ({ b64_json: picture.toString("base64") })),
  });
  res
    .writeHead(200, { "content-type": "application/json", "x-request-id": job.requestId })
    .end(body);
  return { status: 200, replicaId: run.endpoint.id, usage: null, firstByteAtMs: null };
}

/** The graphs for the request; a workflow file is read now, so an edit takes effect at once. */
async function graphsFor(
  deps: ComfyImageDeps,
  model: string,
  settings: ComfyuiSettings,
  request: Parameters<typeof imageWorkflows>[2],
): Promise<WorkflowGraph[]> {
  let fileText: string | null = null;
  if (!isBuiltinWorkflow(settings.workflow)) {
    try {
      fileText = await (deps.readWorkflowFile ?? readWorkflowFile)(settings.workflow);
    } catch (error) {
      deps.log(
        `gateway: model "${model}": workflow file ${settings.workflow}: ${messageOf(error)}`,
      );
      throw unusable(model, "its workflow file cannot be read");
    }
  }
  const built = imageWorkflows(settings, fileText, request);
  if (built.ok) return built.graphs;
  deps.log(`gateway: model "${model}": workflow ${settings.workflow}: ${built.why}`);
  throw unusable(model, built.why);
}

function unusable(model: string, why: string): GatewayError {
  return new GatewayError(
    500,
    `model "${model}" has a workflow llmgw cannot use (${why}); an operator must fix the model's comfyui.workflow`,
    "server_error",
    "workflow_unusable",
  );
}

async function readWorkflowFile(path: string): Promise<string> {
  const text = await readFile(path, "utf8");
  if (text.length > WORKFLOW_FILE_BYTES_MAX)
    throw new Error(`the file is larger than ${WORKFLOW_FILE_BYTES_MAX} bytes`);
  return text;
}
