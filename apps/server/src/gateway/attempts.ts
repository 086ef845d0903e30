// Finding an answer worth sending: least loaded endpoint first; after a 5xx or a connection error
// one retry on another endpoint, only while nothing has reached the client and only while the
// model's retry budget (shared by all its requests) has room. An external key answering 401 or 429
// is passed over for the model's next key and its breaker opens at once; that is not a retry.
import { checkOutboundUrl, isEndpointFailure, type RetryBudget } from "@llmgw/domain";
import { deriveReplicaKey } from "@llmgw/engines";
import type { Dispatcher } from "undici";
import type { Endpoint, EndpointPool } from "./endpoints";
import { clientLeft, GatewayError } from "./errors";
import { externalKeyOf, type ExternalKeyDeps } from "./external";
import { withModel } from "./fallbacks";
import type { RequestTrace } from "./request-trace";
import { callUpstream, type UpstreamResult } from "./upstream";
import type { StreamGuard } from "../guard/stream-guard";

/** Failed attempts (5xx, connection errors) per request: the first and one retry. */
const FAILED_ATTEMPTS_MAX = 2;

export interface ForwardJob {
  model: string;
  path: string;
  method: "GET" | "POST";
  body: Buffer | null;
  requestId: string;
  accept: string | undefined;
  signal: AbortSignal;
  /** The gateway asked for usage the client did not: drop the usage chunk from what it gets. */
  dropsUsageChunk: boolean;
  /** The request's trace: a span per attempt, and one for the answer relayed. */
  trace?: RequestTrace;
  /**
   * Reads a whole JSON answer before the client gets it (the guard); answers the body to send and
   * a header to add. Absent for streams and for callers no answer policy covers.
   */
  rewriteAnswer?: (body: Buffer) => Promise<{ body: Buffer; header: string | null }>;
  /** The body for one endpoint, when it depends on its engine (the guard's judge constraint). */
  bodyFor?: (endpoint: Endpoint) => Buffer;
  /** Reads a streamed answer as it is relayed (the guard); absent when no answer policy covers. */
  guardStream?: () => StreamGuard;
}

export interface ForwardDeps extends ExternalKeyDeps {
  pool: EndpointPool;
  agent: Dispatcher;
  /** For external providers: refuses private and metadata addresses at connect time. */
  externalAgent: Dispatcher;
  allowPrivateUpstreams: boolean;
  replicaSecret: Uint8Array;
  retryBudget(model: string): RetryBudget;
  nowMs(): number;
  log(line: string): void;
  metrics: { attempt(model: string, endpointId: string): void };
}

/** `isSettled`: a failed answer has already been counted against its endpoint. */
export type Answer = {
  endpoint: Endpoint;
  result: Extract<UpstreamResult, { kind: "response" }>;
  isSettled: boolean;
};

interface Tally {
  tried: Set<string>;
  failures: number;
  lastError: string;
  /** External keys the provider refused (401/403) or rate-limited (429), by endpoint id. */
  refused: string[];
  limited: Endpoint[];
  unreadable: string[];
}

export async function firstAcceptableAnswer(
  deps: ForwardDeps,
  job: ForwardJob,
  noEndpoint: () => GatewayError,
): Promise<Answer> {
  const budget = deps.retryBudget(job.model);
  budget.onRequest(deps.nowMs());
  const tally: Tally = {
    tried: new Set(),
    failures: 0,
    lastError: "",
    refused: [],
    limited: [],
    unreadable: [],
  };
  let kept: Answer | null = null;
  while (!job.signal.aborted) {
    const endpoint = deps.pool.choose(job.model, tally.tried, deps.nowMs());
    if (!endpoint) break;
    tally.tried.add(endpoint.id);
    const key = await keyFor(deps, endpoint, tally);
    if (key === null) continue;
    if (tally.failures >= FAILED_ATTEMPTS_MAX) break;
    if (tally.failures > 0 && !budget.tryRetry(deps.nowMs())) break;
    // Nothing has gone to the client yet, so a failed answer can be dropped for another try.
    if (kept) await kept.result.body.dump().catch(() => undefined);
    kept = null;
    const result = await attemptOnce(deps, job, endpoint, key);
    if (result.kind === "connection-error") {
      if (job.signal.aborted) {
        // The client hung up before the answer came: not the endpoint's fault.
        abandon(endpoint);
        break;
      }
      settle(deps, endpoint, "connection-error");
      // Nothing listens there (its node or engine died): no use sending it four more requests.
      if (result.code === "ECONNREFUSED") endpoint.breaker.trip(deps.nowMs());
      tally.failures += 1;
      tally.lastError = result.message;
      continue;
    }
    const { status } = result;
    if (endpoint.external && (status === 401 || status === 403 || status === 429)) {
      settlePassedOver(deps, endpoint, status, tally);
      kept = { endpoint, result, isSettled: true };
      continue;
    }
    if (!isEndpointFailure(status)) return { endpoint, result, isSettled: false };
    settle(deps, endpoint, status);
    tally.failures += 1;
    kept = { endpoint, result, isSettled: true };
  }
  return finalAnswer(job, kept, tally, noEndpoint, deps);
}

/**
 * The key to send: the replica's derived key, or the provider key (sealed, or read from its file);
 * "" for a provider that needs none (a ComfyUI server given no key). Null: this key is unreadable.
 */
export async function keyFor(
  deps: ForwardDeps,
  endpoint: Endpoint,
  tally: Pick<Tally, "unreadable">,
): Promise<string | null> {
  if (!endpoint.external)
    return (endpoint.replicaKey ??= deriveReplicaKey(deps.replicaSecret, endpoint.id));
  const url = checkOutboundUrl(endpoint.baseUrl, deps.allowPrivateUpstreams);
  if (!url.ok)
    throw new GatewayError(
      502,
      `external model "${endpoint.model}": ${url.why}${url.kind === "address" && !deps.allowPrivateUpstreams ? "; set LLMGW_ALLOW_PRIVATE_UPSTREAMS=true if this provider is meant to be private" : ""}`,
      "server_error",
      "external_url_refused",
    );
  const read = await externalKeyOf(deps, endpoint.model, endpoint.external);
  if (read.ok) return read.key;
  if (endpoint.external.isKeyOptional) return "";
  // The reason (a path, a setting) is for the operator's log; the client hears only "unreadable".
  tally.unreadable.push(endpoint.id);
  deps.log(`gateway: ${endpoint.id} left out: ${read.why}`);
  return null;
}

function settlePassedOver(
  deps: ForwardDeps,
  endpoint: Endpoint,
  status: number,
  tally: Tally,
): void {
  endpoint.inFlight = Math.max(0, endpoint.inFlight - 1);
  endpoint.breaker.trip(deps.nowMs());
  if (status === 429) tally.limited.push(endpoint);
  else {
    tally.refused.push(endpoint.id);
    deps.log(`gateway: external_key_refused: the provider answered ${status} to ${endpoint.id}`);
  }
}

async function finalAnswer(
  job: ForwardJob,
  kept: Answer | null,
  tally: Tally,
  noEndpoint: () => GatewayError,
  deps: ForwardDeps,
): Promise<Answer> {
  if (job.signal.aborted) {
    if (kept) await kept.result.body.dump().catch(() => undefined);
    throw clientLeft();
  }
  // A replica's 5xx, or the provider's own answer when the model has a single key, goes through.
  if (kept && (!kept.endpoint.external || kept.endpoint.external.keyCount === 1)) return kept;
  if (kept) await kept.result.body.dump().catch(() => undefined);
  if (tally.limited.length > 0) {
    const now = deps.nowMs();
    const seconds = Math.max(
      1,
      Math.ceil(Math.min(...tally.limited.map((e) => e.breaker.msUntilProbe(now))) / 1_000),
    );
    const refused = tally.refused.length > 0 ? `; ${tally.refused.join(", ")} refused its key` : "";
    throw new GatewayError(
      429,
      `every key of external model "${job.model}" is rate-limited by its provider (${tally.limited.map((e) => e.id).join(", ")})${refused}; retry in ${seconds} s`,
      "rate_limit_error",
      "external_rate_limited",
      { "retry-after": String(seconds) },
    );
  }
  if (tally.refused.length > 0)
    throw new GatewayError(
      502,
      `the provider of external model "${job.model}" refused the key of ${tally.refused.join(", ")}; an operator must replace the key file`,
      "server_error",
      "external_key_refused",
    );
  if (tally.failures === 0 && tally.unreadable.length > 0)
    throw new GatewayError(
      503,
      `no key of external model "${job.model}" can be read (${tally.unreadable.join(", ")}); an operator must set its key (llmgw ctl model key set) or fix its key files`,
      "service_unavailable",
      "external_key_unreadable",
    );
  if (tally.tried.size === 0) throw noEndpoint();
  throw new GatewayError(
    502,
    `no endpoint of model "${job.model}" could be reached: ${tally.lastError}`,
    "server_error",
    "upstream_unreachable",
  );
}

function attemptOnce(
  deps: ForwardDeps,
  job: ForwardJob,
  endpoint: Endpoint,
  key: string,
): Promise<UpstreamResult> {
  endpoint.breaker.onAttempt(deps.nowMs());
  deps.metrics.attempt(job.model, endpoint.id);
  endpoint.inFlight += 1;
  deps.pool.touch(endpoint, deps.nowMs());
  const external = endpoint.external;
  // An external url is the provider's base (…/v1), as an OpenAI client's baseURL is.
  const url = external
    ? `${endpoint.baseUrl}${job.path.replace(/^\/v1/, "")}`
    : `${endpoint.baseUrl}${job.path}`;
  const span = job.trace?.open("llmgw.attempt", {
    ...{ "llmgw.endpoint": endpoint.id, "llmgw.external": Boolean(external), "url.full": url },
  });
  const result = callUpstream({
    agent: external ? deps.externalAgent : deps.agent,
    url,
    method: job.method,
    body: bodyOf(job, endpoint),
    replicaKey: key,
    requestId: job.requestId,
    // The trace is this cluster's: it goes to its own engines, not to an external provider.
    traceparent: external ? undefined : span?.traceparent(),
    accept: job.accept,
    signal: job.signal,
  });
  void result.then(
    (answer) =>
      span?.end(answer.kind === "response" ? answer.status : (answer.code ?? "connection-error")),
    () => span?.end("error"),
  );
  return result;
}

function bodyOf(job: ForwardJob, endpoint: Endpoint): Buffer | null {
  const body = job.bodyFor ? job.bodyFor(endpoint) : job.body;
  const external = endpoint.external;
  return external && body ? withModel(body, external.upstreamModel) : body;
}

export function settle(
  deps: ForwardDeps,
  endpoint: Endpoint,
  status: number | "connection-error",
): void {
  endpoint.inFlight = Math.max(0, endpoint.inFlight - 1);
  if (isEndpointFailure(status)) endpoint.breaker.onFailure(deps.nowMs());
  else endpoint.breaker.onSuccess();
}

/** Releases an attempt the client gave up on, leaving the endpoint's health as it was. */
export function abandon(endpoint: Endpoint): void {
  endpoint.inFlight = Math.max(0, endpoint.inFlight - 1);
  endpoint.breaker.onAbandoned();
}
