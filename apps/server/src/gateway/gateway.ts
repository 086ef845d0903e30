// The OpenAI-compatible /v1 surface: key check, allowlist, per-key limits, then forwarding to
// the model's replicas. Every refusal is an OpenAI-shaped JSON error; bad input is never a 5xx.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiKeyRow } from "@llmgw/db";
import { isComfyuiModel, modelAllowed } from "@llmgw/domain";
import { requestTarget, servedNames, withAdapterSelection } from "./adapter-target";
import type { GatewayKeys } from "../keys/keys-service";
import { isStoreAway } from "../store-queue";
import type { FleetView } from "../fleet/fleet-view";
import type { AdmissionQueues } from "./admission";
import { GatewayError, sendGatewayError } from "./errors";
import { servingModel } from "./fallbacks";
import { forward, type ForwardDeps, type ForwardJob, type ForwardOutcome } from "./forward";
import type { GatewayMetrics } from "./gateway-metrics";
import type { KeyLimits } from "./key-limits";
import { awaitOnDemand, type OnDemandDeps } from "./on-demand";
import { parseV1Body, readBody, upstreamBody } from "./request-body";
import { whyUnavailable } from "./unavailable";
import type { RequestTracer } from "./request-trace";
import type { UsageRecorder } from "./usage-recorder";
import { bearerKeyOf } from "./bearer";
import { serveComfyImages, type ComfyImageDeps } from "./comfy/comfy-images";
import type { Guard } from "../guard/guard";
import { GUARD_HEADER, guardV1Json, type V1Who } from "../guard/v1-guard";
import { answerReaders } from "../guard/answer-readers";
import { HOP_HEADER, checkHops } from "../federation/hop";
import { forwardToPeer, type PeerForwardDeps } from "../federation/peer-forward";

const V1_POST_PATHS: ReadonlySet<string> = new Set([
  "/v1/chat/completions",
  "/v1/completions",
  "/v1/embeddings",
  "/v1/images/generations",
]);
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface GatewayDeps extends ForwardDeps, ComfyImageDeps {
  keys: GatewayKeys;
  limits: KeyLimits;
  queues: AdmissionQueues;
  onDemand: OnDemandDeps;
  usage: UsageRecorder;
  metrics: GatewayMetrics;
  fleet: FleetView;
  tracer: RequestTracer;
  guard: Guard;
  peers: PeerForwardDeps;
}

export function createGateway(
  deps: GatewayDeps,
): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void> {
  return async (req, res, path) => {
    const offered = req.headers["x-request-id"];
    const requestId =
      typeof offered === "string" && REQUEST_ID.test(offered) ? offered : randomUUID();
    try {
      const key = await authenticate(deps.keys, req);
      // A request that already passed this cluster came round a loop of peers: sending it on
      // again would go round once more, so it ends here.
      const hops = checkHops(req.headers[HOP_HEADER], deps.peers.federation.clusterId);
      if (!hops.ok)
        throw new GatewayError(
          hops.code === "federation_loop" ? 508 : 400,
          hops.why,
          "invalid_request_error",
          hops.code,
        );
      if (path === "/v1/models" && req.method === "GET")
        return listModels(deps, key, res, requestId);
      if (!V1_POST_PATHS.has(path))
        throw new GatewayError(
          404,
          `no route for ${req.method ?? "GET"} ${path}`,
          "invalid_request_error",
          "unknown_url",
        );
      if (req.method !== "POST")
        throw new GatewayError(
          405,
          `${path} takes POST, not ${req.method ?? "?"}`,
          "invalid_request_error",
          "method_not_allowed",
          { allow: "POST" },
        );
      await serve(deps, key, req, res, { path, requestId, hops: hops.hops });
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      sendGatewayError(res, error, requestId);
    }
  };
}

async function authenticate(keys: GatewayKeys, req: IncomingMessage): Promise<ApiKeyRow> {
  const bearer = bearerKeyOf(req.headers.authorization);
  if (!bearer.ok) throw new GatewayError(401, bearer.why, "authentication_error", bearer.code);
  const check = await keys.check(bearer.key).catch((error: unknown) => {
    // A key never seen before (or not seen for long) while the store is away: a clear retry.
    if (!isStoreAway(error)) throw error;
    throw new GatewayError(
      503,
      "the key store is out of reach for a moment and this key was not seen recently; retry shortly",
      "service_unavailable",
      "store_unavailable",
      { "retry-after": "2" },
    );
  });
  if (!check.ok)
    throw new GatewayError(
      401,
      `invalid API key: ${check.why}`,
      "authentication_error",
      "invalid_api_key",
    );
  return check.key;
}

function listModels(
  deps: GatewayDeps,
  key: ApiKeyRow,
  res: ServerResponse,
  requestId: string,
): void {
  const local = deps.fleet.catalog
    .current()
    .models.flatMap(servedNames)
    .filter((name) => modelAllowed(key.models, name))
    .map((name) => ({ id: name, object: "model", created: 0, owned_by: "llmgw" }));
  // A key that must stay in this cluster is not shown models it could never be sent to.
  const peers =
    keyStaysLocal(key) !== null
      ? []
      : deps.peers.federation
          .offered()
          .filter((name) => modelAllowed(key.models, name))
          .map((name) => ({ id: name, object: "model", created: 0, owned_by: "llmgw-peer" }));
  const data = [...local, ...peers];
  res
    .writeHead(200, { "content-type": "application/json", "x-request-id": requestId })
    .end(JSON.stringify({ object: "list", data }));
}

/** A ComfyUI model's picture request becomes a workflow; everything else is passed through. */
function answer(
  deps: GatewayDeps,
  job: ForwardJob,
  res: ServerResponse,
  noEndpoint: () => GatewayError,
): Promise<ForwardOutcome> {
  const definition = deps.fleet.catalog.current().get(job.model);
  if (!definition || !isComfyuiModel(definition)) return forward(deps, job, res, noEndpoint);
  if (job.path !== "/v1/images/generations" || job.body === null)
    throw new GatewayError(
      400,
      `model "${job.model}" makes pictures through ComfyUI; it answers only /v1/images/generations`,
      "invalid_request_error",
      "unsupported_endpoint",
    );
  return serveComfyImages(deps, { ...job, definition, raw: job.body }, res, noEndpoint);
}

/** Why a key's requests must stay in this cluster (its residency, or no_store), or null. */
function keyStaysLocal(key: ApiKeyRow): "residency_local" | "no_store" | null {
  if (key.noStore) return "no_store";
  return key.residency === "local" ? "residency_local" : null;
}

/** Whether a request must stay in this cluster: its key's or its model's residency says so. */
function staysLocal(deps: GatewayDeps, key: ApiKeyRow, model: string): boolean {
  const definition = deps.fleet.catalog.current().get(model);
  return (
    keyStaysLocal(key) !== null ||
    definition?.residency === "local" ||
    definition?.no_store === true
  );
}

async function serve(
  deps: GatewayDeps,
  key: ApiKeyRow,
  req: IncomingMessage,
  res: ServerResponse,
  route: { path: string; requestId: string; hops: readonly string[] },
): Promise<void> {
  const { path, requestId } = route;
  const body = parseV1Body(await readBody(req), req.headers["content-type"]);
  const { federation } = deps.peers;
  // A catalog model (or one of its adapters), else a model a peer cluster offers.
  const target = requestTarget(deps.fleet.catalog.current(), body.model);
  const isKnown = target !== undefined || federation.target(body.model) !== null;
  // An unknown model and a model outside the allowlist look the same, as OpenAI answers both.
  if (!modelAllowed(key.models, body.model) || !isKnown) {
    throw new GatewayError(
      404,
      `The model \`${body.model}\` does not exist or you do not have access to it.`,
      "invalid_request_error",
      "model_not_found",
    );
  }
  const startedMs = deps.nowMs();
  // Plain literals, no spreads, for the tracer and its outcome: V8 builds an object spread into
  // another through its runtime, about 3.5 µs a request for a tracer that is usually off.
  const trace = deps.tracer.start({
    path,
    model: body.model,
    requestId,
    isStream: body.isStream,
    sampling: body.sampling,
    headers: req.headers,
    startMs: startedMs,
  });
  try {
    await trace.step("llmgw.admission", {}, async () => deps.limits.admit(key, startedMs));
  } catch (error) {
    // Refused by the key's limits: nothing was admitted, so nothing is released or counted.
    const status = error instanceof GatewayError ? error.status : 500;
    trace.finish({
      status,
      model: body.model,
      replicaId: null,
      promptTokens: 0,
      completionTokens: 0,
      firstByteAtMs: null,
      endMs: deps.nowMs(),
    });
    throw error;
  }
  const client = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) client.abort();
  });
  let outcome: ForwardOutcome = { status: 0, replicaId: null, usage: null, firstByteAtMs: null };
  // The catalog model asked for (an adapter's base model), or the peer model's own name.
  const asked = target?.model ?? body.model;
  let model = asked;
  let leave: (() => void) | null = null;
  try {
    const who: V1Who = {
      subject: `key:${key.id}`,
      levels: [key.owner, `key:${key.id}`],
      requestId,
    };
    const prompt = await trace.step("llmgw.guard", { "llmgw.guard.stage": "prompt" }, () =>
      guardV1Json(deps.guard, "prompt", who, body.raw),
    );
    if (prompt.header) res.setHeader(GUARD_HEADER, prompt.header);
    const isLocal = staysLocal(deps, key, asked);
    const peerAsked = federation.target(body.model);
    if (peerAsked && isLocal) {
      // Only the key can say so here: a peer's model has no definition in this catalog.
      const why = keyStaysLocal(key) ?? "residency_local";
      const setting = why === "no_store" ? "no_store: true" : "residency: local";
      throw new GatewayError(
        403,
        `key ${key.prefix} may not send requests outside this cluster (${setting}); "${body.model}" is served by peer ${peerAsked.peer.row.name}`,
        "invalid_request_error",
        why,
      );
    }
    if (!peerAsked) {
      const peers = isLocal ? null : federation;
      await trace.step("llmgw.on_demand", {}, () =>
        awaitOnDemand(deps.onDemand, asked, client.signal),
      );
      // Another model has not the adapter, so a request for one never falls back.
      model =
        target?.adapterIndex === undefined
          ? servingModel(deps.fleet.catalog, deps.pool, key.models, asked, deps.nowMs(), peers)
          : asked;
    }
    if (model !== asked) res.setHeader("x-llmgw-fallback-from", body.model);
    const peerTarget = federation.target(model);
    if (peerTarget) {
      const upstream = trace.open("llmgw.peer", { "llmgw.peer": peerTarget.peer.row.name });
      outcome = await forwardToPeer(
        deps.peers,
        {
          target: peerTarget,
          path,
          body: upstreamBody({ ...body, raw: prompt.raw }, path, model),
          requestId,
          accept: req.headers.accept,
          signal: client.signal,
          dropsUsageChunk: body.isStream && !body.wantsUsage,
          hops: route.hops,
          key,
        },
        res,
      );
      upstream.end(outcome.status);
      return;
    }
    const serving = model;
    const answerPolicies = await deps.guard.covering("answer", who.levels);
    leave = await trace.step("llmgw.queue", { "llmgw.model": serving }, () =>
      deps.queues.enter(serving, client.signal),
    );
    const noEndpoint = () =>
      whyUnavailable(deps.fleet, asked, deps.pool.endpointsOf(asked), deps.nowMs());
    // An adapter keeps the name the client sent: the engine serves it under that name.
    const upstreamModel = model === asked ? body.model : model;
    const job = {
      model,
      path,
      method: "POST" as const,
      body: target
        ? withAdapterSelection(
            upstreamBody({ ...body, raw: prompt.raw }, path, upstreamModel),
            target,
          )
        : upstreamBody({ ...body, raw: prompt.raw }, path, upstreamModel),
      requestId,
      accept: req.headers.accept,
      signal: client.signal,
      dropsUsageChunk: body.isStream && !body.wantsUsage,
      trace,
      // Read by the guard only when a policy reads this caller's answers; else piped through.
      ...answerReaders(deps.guard, who, answerPolicies, body.isStream, prompt.header),
    };
    outcome = await answer(deps, job, res, noEndpoint);
  } catch (error) {
    if (error instanceof GatewayError)
      outcome = { ...outcome, status: error.status, errorCode: error.code };
    throw error;
  } finally {
    leave?.();
    const tokens = (outcome.usage?.promptTokens ?? 0) + (outcome.usage?.completionTokens ?? 0);
    const endMs = deps.nowMs();
    deps.limits.release(key.id, tokens, endMs);
    const row = {
      keyId: key.id,
      owner: key.owner,
      // Usage and metrics count an adapter by its own name.
      model: model === asked ? body.model : model,
      endpoint: path,
      replicaId: outcome.replicaId,
      requestId,
      promptTokens: outcome.usage?.promptTokens ?? 0,
      completionTokens: outcome.usage?.completionTokens ?? 0,
      latencyMs: endMs - startedMs,
      ttftMs: outcome.firstByteAtMs === null ? null : outcome.firstByteAtMs - startedMs,
      status: outcome.status || (client.signal.aborted ? 499 : 500),
      errorCode: outcome.errorCode ?? null,
      at: new Date(endMs),
    };
    deps.usage.record(row);
    deps.metrics.observe(row);
    trace.finish({
      status: row.status,
      model: row.model,
      replicaId: row.replicaId,
      promptTokens: row.promptTokens,
      completionTokens: row.completionTokens,
      firstByteAtMs: outcome.firstByteAtMs,
      endMs,
    });
  }
}
