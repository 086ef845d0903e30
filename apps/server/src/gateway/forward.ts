// Sends one admitted request to the model's replicas: least in-flight first, a retry on another
// endpoint only while nothing has reached the client, breakers fed by every outcome, and the
// answer streamed through with backpressure.
import type { ServerResponse } from "node:http";
import { once } from "node:events";
import { isEndpointFailure } from "@llmgw/domain";
import { deriveReplicaKey } from "@llmgw/engines";
import type { Dispatcher } from "undici";
import type { Endpoint, EndpointPool } from "./endpoints";
import { GatewayError } from "./errors";
import { callUpstream, type UpstreamResult } from "./upstream";
import { UsageScanner, type TokenUsage } from "./usage-scan";

/** One retry at most: with every endpoint failing, attempts stay well under 1.2 × requests once breakers open. */
const ATTEMPTS_MAX = 2;

export interface ForwardJob {
  model: string;
  path: string;
  method: "GET" | "POST";
  body: Buffer | null;
  requestId: string;
  accept: string | undefined;
  signal: AbortSignal;
}

export interface ForwardDeps {
  pool: EndpointPool;
  agent: Dispatcher;
  replicaSecret: Uint8Array;
  nowMs(): number;
  log(line: string): void;
  metrics: { attempt(model: string, replicaId: string): void };
}

export interface ForwardOutcome {
  status: number;
  replicaId: string | null;
  usage: TokenUsage | null;
  firstByteAtMs: number | null;
}

/** `isSettled`: a failed answer has already been counted against its endpoint. */
type Answer = {
  endpoint: Endpoint;
  result: Extract<UpstreamResult, { kind: "response" }>;
  isSettled: boolean;
};

export async function forward(
  deps: ForwardDeps,
  job: ForwardJob,
  res: ServerResponse,
  noEndpoint: () => GatewayError,
): Promise<ForwardOutcome> {
  const answer = await firstAcceptableAnswer(deps, job, noEndpoint);
  const { endpoint, result } = answer;
  if (result.status === 401 || result.status === 403) {
    // The replica refused the key this gateway derived for it: a fault here, never the client's.
    await result.body.dump().catch(() => undefined);
    if (!answer.isSettled) settle(deps, endpoint, "connection-error");
    throw new GatewayError(
      502,
      `replica ${endpoint.replicaId} of model "${job.model}" refused its replica key`,
      "server_error",
      "replica_key_refused",
    );
  }
  const scanner = new UsageScanner(deps.nowMs);
  res.writeHead(result.status, { ...result.headers, "x-request-id": job.requestId });
  const outcome = {
    status: result.status,
    replicaId: endpoint.replicaId,
    usage: null,
    firstByteAtMs: null,
  };
  const broke = await relay(result.body, scanner, res, job.signal);
  if (!answer.isSettled)
    settle(deps, endpoint, broke && !job.signal.aborted ? "connection-error" : result.status);
  if (broke && !job.signal.aborted) {
    deps.log(
      `request ${job.requestId}: the answer from ${endpoint.replicaId} broke off: ${broke.message}`,
    );
    endBroken(res, result.headers["content-type"], endpoint.replicaId);
  }
  return { ...outcome, usage: scanner.usage(), firstByteAtMs: scanner.firstByteAtMs };
}

/** Copies the answer to the client, waiting for it to drain; returns the error that cut it short. */
async function relay(
  body: AsyncIterable<Buffer>,
  scanner: UsageScanner,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<Error | null> {
  try {
    for await (const chunk of body) {
      scanner.see(chunk);
      if (!res.write(chunk)) await once(res, "drain", { signal });
    }
    res.end();
    return null;
  } catch (error) {
    return error as Error;
  }
}

/** A stream cut mid-way ends with an explicit error event, so clients do not take it for a whole answer. */
function endBroken(res: ServerResponse, contentType: string | undefined, replicaId: string): void {
  if (res.destroyed) return;
  if (contentType?.startsWith("text/event-stream")) {
    const error = {
      message: `the stream from replica ${replicaId} broke off before it finished`,
      type: "server_error",
      code: "upstream_interrupted",
    };
    res.end(`data: ${JSON.stringify({ error })}\n\n`);
  } else res.destroy();
}

async function firstAcceptableAnswer(
  deps: ForwardDeps,
  job: ForwardJob,
  noEndpoint: () => GatewayError,
): Promise<Answer> {
  const tried = new Set<string>();
  let failed: Answer | null = null;
  let lastError = "";
  for (let attempt = 0; attempt < ATTEMPTS_MAX && !job.signal.aborted; attempt++) {
    const endpoint = deps.pool.choose(job.model, tried, deps.nowMs());
    if (!endpoint) break;
    tried.add(endpoint.id);
    // Nothing has gone to the client yet, so the failed answer can be dropped for a retry.
    if (failed) await failed.result.body.dump().catch(() => undefined);
    failed = null;
    const result = await attemptOnce(deps, job, endpoint);
    if (result.kind === "response" && !isEndpointFailure(result.status))
      return { endpoint, result, isSettled: false };
    if (result.kind === "response") {
      settle(deps, endpoint, result.status);
      failed = { endpoint, result, isSettled: true };
    } else {
      settle(deps, endpoint, "connection-error");
      lastError = result.message;
    }
  }
  if (failed) return failed;
  if (tried.size === 0) throw noEndpoint();
  throw new GatewayError(
    502,
    `no replica of model "${job.model}" could be reached: ${lastError}`,
    "server_error",
    "upstream_unreachable",
  );
}

function attemptOnce(
  deps: ForwardDeps,
  job: ForwardJob,
  endpoint: Endpoint,
): Promise<UpstreamResult> {
  endpoint.breaker.onAttempt(deps.nowMs());
  deps.metrics.attempt(job.model, endpoint.replicaId);
  endpoint.inFlight += 1;
  deps.pool.touch(endpoint.replicaId, deps.nowMs());
  return callUpstream({
    agent: deps.agent,
    url: `${endpoint.baseUrl}${job.path}`,
    method: job.method,
    body: job.body,
    replicaKey: deriveReplicaKey(deps.replicaSecret, endpoint.replicaId),
    requestId: job.requestId,
    accept: job.accept,
    signal: job.signal,
  });
}

function settle(deps: ForwardDeps, endpoint: Endpoint, status: number | "connection-error"): void {
  endpoint.inFlight = Math.max(0, endpoint.inFlight - 1);
  if (isEndpointFailure(status)) endpoint.breaker.onFailure(deps.nowMs());
  else endpoint.breaker.onSuccess();
}
