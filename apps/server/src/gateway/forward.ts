// Sends one admitted request to the model's replicas: least in-flight first, a retry on another
// endpoint only while nothing has reached the client, breakers fed by every outcome, and the
// answer streamed through with backpressure.
import type { ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
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
}

export interface ForwardOutcome {
  status: number;
  replicaId: string | null;
  usage: TokenUsage | null;
  firstByteAtMs: number | null;
}

/** `isSettled`: a failed answer has already been counted against its endpoint. */
type Answer = { endpoint: Endpoint; result: Extract<UpstreamResult, { kind: "response" }>; isSettled: boolean };

export async function forward(deps: ForwardDeps, job: ForwardJob, res: ServerResponse, noEndpoint: () => GatewayError): Promise<ForwardOutcome> {
  const answer = await firstAcceptableAnswer(deps, job, noEndpoint);
  const { endpoint, result } = answer;
  const scanner = new UsageScanner(deps.nowMs);
  res.writeHead(result.status, { ...result.headers, "x-request-id": job.requestId });
  try {
    await pipeline(result.body, scanner, res);
    if (!answer.isSettled) settle(deps, endpoint, result.status);
  } catch (error) {
    // The client left (not the endpoint's fault) or the stream broke mid-way (it is).
    if (answer.isSettled) return { status: result.status, replicaId: endpoint.replicaId, usage: null, firstByteAtMs: scanner.firstByteAtMs };
    if (job.signal.aborted) settle(deps, endpoint, 200);
    else {
      settle(deps, endpoint, "connection-error");
      deps.log(`request ${job.requestId}: stream from ${endpoint.replicaId} broke: ${(error as Error).message}`);
    }
  }
  return { status: result.status, replicaId: endpoint.replicaId, usage: scanner.usage(), firstByteAtMs: scanner.firstByteAtMs };
}

async function firstAcceptableAnswer(deps: ForwardDeps, job: ForwardJob, noEndpoint: () => GatewayError): Promise<Answer> {
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
    if (result.kind === "response" && !isEndpointFailure(result.status)) return { endpoint, result, isSettled: false };
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
  throw new GatewayError(502, `no replica of model "${job.model}" could be reached: ${lastError}`, "server_error", "upstream_unreachable");
}

function attemptOnce(deps: ForwardDeps, job: ForwardJob, endpoint: Endpoint): Promise<UpstreamResult> {
  endpoint.breaker.onAttempt(deps.nowMs());
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
