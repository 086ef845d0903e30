// Queueing a request's graphs on one endpoint of the model, chosen as any request's is: least
// loaded first, one more endpoint tried after a connection error or a 5xx while the retry budget
// has room, breakers fed by each outcome. ComfyUI refusing the graph is not the endpoint's fault.
import type { WorkflowGraph } from "@llmgw/domain";
import { abandon, keyFor, settle, type ForwardDeps } from "../attempts";
import type { Endpoint } from "../endpoints";
import { GatewayError } from "../errors";
import { comfyJson, type ComfyTarget } from "./comfy-client";
import { nodeErrorsSummary, queuedPromptId } from "./comfy-answers";
import { cancelQueued } from "./comfy-wait";

const FAILED_ATTEMPTS_MAX = 2;

export interface QueuedRun {
  endpoint: Endpoint;
  target: ComfyTarget;
  promptIds: string[];
}

interface QueueJob {
  model: string;
  requestId: string;
  signal: AbortSignal;
}

type Attempt = { ok: true; run: QueuedRun } | { ok: false; why: string };

export async function queueGraphs(
  deps: ForwardDeps,
  job: QueueJob,
  graphs: WorkflowGraph[],
  noEndpoint: () => GatewayError,
): Promise<QueuedRun> {
  const budget = deps.retryBudget(job.model);
  budget.onRequest(deps.nowMs());
  const tried = new Set<string>();
  const tally = { unreadable: [] as string[] };
  let failures = 0;
  let lastError = "";
  while (!job.signal.aborted && failures < FAILED_ATTEMPTS_MAX) {
    const endpoint = deps.pool.choose(job.model, tried, deps.nowMs());
    if (!endpoint) break;
    tried.add(endpoint.id);
    const key = await keyFor(deps, endpoint, tally);
    if (key === null) continue;
    if (failures > 0 && !budget.tryRetry(deps.nowMs())) break;
    const target = {
      agent: endpoint.external ? deps.externalAgent : deps.agent,
      baseUrl: endpoint.baseUrl,
      key,
      requestId: job.requestId,
    };
    const attempt = await queueOn(deps, job, endpoint, target, graphs);
    if (attempt.ok) return attempt.run;
    failures += 1;
    lastError = attempt.why;
  }
  if (job.signal.aborted)
    throw new GatewayError(499, "the client left", "invalid_request_error", "client_closed");
  if (failures === 0 && tally.unreadable.length > 0)
    throw new GatewayError(
      503,
      `no key of external model "${job.model}" can be read; an operator must set its key or fix its key files`,
      "service_unavailable",
      "external_key_unreadable",
    );
  if (tried.size === 0) throw noEndpoint();
  throw new GatewayError(
    502,
    `no endpoint of model "${job.model}" could take the workflow: ${lastError}`,
    "server_error",
    "upstream_unreachable",
  );
}

/** Queues every graph on one endpoint; a failure takes the ones already queued back off. */
async function queueOn(
  deps: ForwardDeps,
  job: QueueJob,
  endpoint: Endpoint,
  target: ComfyTarget,
  graphs: WorkflowGraph[],
): Promise<Attempt> {
  endpoint.breaker.onAttempt(deps.nowMs());
  deps.metrics.attempt(job.model, endpoint.id);
  endpoint.inFlight += 1;
  deps.pool.touch(endpoint, deps.nowMs());
  const promptIds: string[] = [];
  for (const graph of graphs) {
    const answer = await comfyJson(target, "POST", "/prompt", { prompt: graph }, job.signal);
    const promptId = answer.kind === "answer" ? queuedPromptId(answer.json) : null;
    if (answer.kind === "answer" && answer.status === 200 && promptId !== null) {
      promptIds.push(promptId);
      continue;
    }
    await cancelQueued(target, promptIds, deps.log);
    if (job.signal.aborted) {
      abandon(endpoint);
      return { ok: false, why: "the client left" };
    }
    if (answer.kind === "unreachable") {
      settle(deps, endpoint, "connection-error");
      if (answer.code === "ECONNREFUSED") endpoint.breaker.trip(deps.nowMs());
      return { ok: false, why: answer.message };
    }
    refuseOrFail(deps, job.model, endpoint, answer.status, answer.json);
    return { ok: false, why: `${endpoint.id} answered ${answer.status}` };
  }
  return { ok: true, run: { endpoint, target, promptIds } };
}

/** Throws what the client should hear; returns when the endpoint failed and another may be tried. */
function refuseOrFail(
  deps: ForwardDeps,
  model: string,
  endpoint: Endpoint,
  status: number,
  json: unknown,
): void {
  if (status === 400) {
    settle(deps, endpoint, status);
    const where = nodeErrorsSummary(json) ?? "ComfyUI gave no reason";
    deps.log(`gateway: ComfyUI refused model "${model}"'s workflow at ${endpoint.id}: ${where}`);
    throw new GatewayError(
      400,
      `ComfyUI refused model "${model}"'s workflow: ${where}`,
      "invalid_request_error",
      "workflow_refused",
    );
  }
  if (status === 401 || status === 403) {
    settle(deps, endpoint, "connection-error");
    throw new GatewayError(
      502,
      endpoint.external
        ? `the ComfyUI server of external model "${model}" refused its key; an operator must replace it`
        : `replica ${endpoint.id} of model "${model}" refused its replica key`,
      "server_error",
      endpoint.external ? "external_key_refused" : "replica_key_refused",
    );
  }
  // A 5xx, or an answer that is not ComfyUI's: the endpoint failed this request.
  settle(deps, endpoint, status >= 500 ? status : "connection-error");
}
