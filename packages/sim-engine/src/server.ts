// The simulator's HTTP server: routes, the replica-key check, readiness and fault dice. /health and
// /metrics are open, as vLLM's are; everything under /v1 needs `Authorization: Bearer <key>`.
import { messageOf } from "@llmgw/domain";
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimEngineConfig } from "./config";
import type { RequestContext } from "./context";
import { handleEmbeddings } from "./embeddings";
import { handleChat, handleCompletion } from "./generate";
import { bearerToken, HttpError, readJson, sendError, sendJson } from "./http-util";
import { handleImages } from "./images";
import { EngineLoad } from "./load";
import { renderMetrics } from "./metrics";
import { requestLogLine } from "./request-log";
import { parseFaults } from "./faults";
import { seededRandom } from "./random";
import type { ShardGroup } from "./shard-group";
import { StreamDroppedError } from "./stream";

type Handler = (ctx: RequestContext) => Promise<void>;

const V1_ROUTES: Record<string, Handler> = {
  "/v1/chat/completions": handleChat,
  "/v1/completions": handleCompletion,
  "/v1/embeddings": handleEmbeddings,
  "/v1/images/generations": handleImages,
};

export interface SimEngine {
  readonly load: EngineLoad;
  listen(): Promise<number>;
  isReady(): boolean;
  /** Stops listening and cuts every open request, as a dying engine would. */
  close(): Promise<void>;
}

export interface SimEngineDeps {
  log: (line: string) => void;
  nowMs?: () => number;
  /** This process's place in a replica spanning nodes; absent for a replica on one node. */
  group?: ShardGroup;
}

export function createSimEngine(config: SimEngineConfig, deps: SimEngineDeps): SimEngine {
  const nowMs = deps.nowMs ?? Date.now;
  const readyAtMs = nowMs() + config.readyAfterMs;
  // A leader is not ready before its workers joined, a worker not before its leader welcomed it.
  const isReady = (): boolean =>
    !config.faults.isNeverReady && nowMs() >= readyAtMs && (deps.group?.isJoined() ?? true);
  const load = new EngineLoad(config.maxNumSeqs, config.kvCacheTokens);
  const shutdown = new AbortController();
  const dice = seededRandom(config.seed);
  const state: ServerState = {
    config,
    load,
    isReady,
    dice,
    shutdown: shutdown.signal,
    log: deps.log,
    control: { extraWaiting: 0, metricsStatus: null },
    workerRank: deps.group?.isWorker ? deps.group.rank : undefined,
  };
  const server = createServer((req, res) => void handleRequest(state, req, res));
  return {
    load,
    isReady,
    listen: () => listen(server, config),
    close: async () => {
      shutdown.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

interface ServerState {
  config: SimEngineConfig;
  load: EngineLoad;
  isReady: () => boolean;
  dice: () => number;
  shutdown: AbortSignal;
  log: (line: string) => void;
  control: { extraWaiting: number; metricsStatus: number | null };
  /** Set on a worker shard, which answers /health only, as a real headless worker serves nothing. */
  workerRank: number | undefined;
}

function listen(server: Server, config: SimEngineConfig): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function handleRequest(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const startedMs = Date.now();
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const requestId = headerValue(req.headers["x-request-id"]);
  const responseHeaders: Record<string, string> =
    requestId === undefined ? {} : { "x-request-id": requestId };
  const client = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) client.abort();
  });
  const ctx: RequestContext = {
    req,
    res,
    config: state.config,
    load: state.load,
    responseHeaders,
    signal: AbortSignal.any([client.signal, state.shutdown]),
    readBody: () => readJson(req),
    requireModel: (model) => {
      const served = [state.config.model, ...state.config.loraModules.map((lora) => lora.name)];
      if (model !== undefined && !served.includes(model)) {
        throw new HttpError(
          404,
          `The model \`${model}\` does not exist.`,
          "NotFoundError",
          "model_not_found",
          "model",
        );
      }
    },
  };
  const isV1 = path.startsWith("/v1/");
  const traceparent = headerValue(req.headers.traceparent);
  if (isV1) state.log(requestLogLine({ nowMs: startedMs, path, requestId, traceparent }));
  try {
    await route(state, ctx, path);
  } catch (error) {
    answerFailure(state, ctx, error);
  }
  if (isV1) {
    const nowMs = Date.now();
    const status = res.statusCode;
    state.log(requestLogLine({ nowMs, path, requestId, status, durationMs: nowMs - startedMs }));
  }
}

async function route(state: ServerState, ctx: RequestContext, path: string): Promise<void> {
  const method = ctx.req.method ?? "GET";
  if (path === "/health") return expectMethod(method, "GET", () => healthAnswer(state, ctx));
  if (state.workerRank !== undefined)
    throw new HttpError(
      404,
      `this is worker shard rank ${state.workerRank} of a simulated replica spanning nodes; it serves no API (send requests to the leader shard)`,
      "invalid_request_error",
      "not_found",
    );
  if (path === "/metrics") return expectMethod(method, "GET", () => metricsAnswer(state, ctx));
  if (path === "/sim/control" && state.config.isControlOpen)
    return expectMethod(method, "PUT", () => controlAnswer(state, ctx));
  if (path === "/v1/models")
    return expectMethod(method, "GET", () =>
      guarded(state, ctx, async () => modelsAnswer(state, ctx)),
    );
  const handler = V1_ROUTES[path];
  if (handler === undefined)
    throw new HttpError(
      404,
      `no route for ${method} ${path}`,
      "invalid_request_error",
      "not_found",
    );
  return expectMethod(method, "POST", () => guarded(state, ctx, () => handler(ctx)));
}

async function expectMethod(
  method: string,
  wanted: string,
  answer: () => void | Promise<void>,
): Promise<void> {
  if (method !== wanted)
    throw new HttpError(
      405,
      `method ${method} is not allowed here; use ${wanted}`,
      "invalid_request_error",
      "method_not_allowed",
    );
  await answer();
}

/** The key first, then readiness, then the fault dice, as a real engine's middleware would order them. */
async function guarded(
  state: ServerState,
  ctx: RequestContext,
  handler: () => Promise<void>,
): Promise<void> {
  checkKey(state.config.apiKey, bearerToken(ctx.req));
  if (!state.isReady())
    throw new HttpError(
      503,
      "the engine is still loading the model; retry after /health answers 200",
      "service_unavailable",
      "engine_loading",
    );
  const { status429Rate, status5xxRate } = state.config.faults;
  if (status429Rate > 0 && state.dice() < status429Rate) {
    ctx.responseHeaders["retry-after"] = "1";
    throw new HttpError(
      429,
      "Rate limit reached (simulated by --fault status-429)",
      "requests",
      "rate_limit_exceeded",
    );
  }
  if (status5xxRate > 0 && state.dice() < status5xxRate) {
    throw new HttpError(
      500,
      "The engine failed to answer (simulated by --fault status-5xx)",
      "server_error",
      "internal_error",
    );
  }
  await handler();
}

function checkKey(expected: string | undefined, given: string | undefined): void {
  if (expected === undefined) return;
  if (given === undefined) {
    throw new HttpError(
      401,
      "You didn't provide an API key. Send it as `Authorization: Bearer <key>`.",
      "invalid_request_error",
      "invalid_api_key",
    );
  }
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new HttpError(
      401,
      "Incorrect API key provided.",
      "invalid_request_error",
      "invalid_api_key",
    );
  }
}

function healthAnswer(state: ServerState, ctx: RequestContext): void {
  const isReady = state.isReady();
  sendJson(
    ctx.res,
    isReady ? 200 : 503,
    { status: isReady ? "ready" : "loading" },
    ctx.responseHeaders,
  );
}

/**
 * Test control: `{faults?: string[], extra_waiting?: number, metrics_status?: number | null}`.
 * Faults replace the current ones (same forms as --fault); metrics_status makes /metrics fail.
 */
async function controlAnswer(state: ServerState, ctx: RequestContext): Promise<void> {
  const body = (await ctx.readBody()) as Record<string, unknown>;
  const bad = (message: string) =>
    new HttpError(400, message, "invalid_request_error", "invalid_control");
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw bad("send a JSON object");
  if (body.faults !== undefined) {
    if (!Array.isArray(body.faults) || body.faults.some((f) => typeof f !== "string"))
      throw bad("faults is a list of --fault specs");
    try {
      state.config.faults = parseFaults(body.faults as string[]);
    } catch (error) {
      throw bad(messageOf(error));
    }
  }
  if (body.extra_waiting !== undefined) {
    if (typeof body.extra_waiting !== "number" || !(body.extra_waiting >= 0))
      throw bad("extra_waiting is a number of requests, 0 or more");
    state.control.extraWaiting = body.extra_waiting;
  }
  if (body.metrics_status !== undefined) {
    const status = body.metrics_status;
    if (status !== null && (typeof status !== "number" || status < 200 || status > 599))
      throw bad("metrics_status is an HTTP status or null");
    state.control.metricsStatus = status;
  }
  state.log(`sim-engine: control ${JSON.stringify(body)}`);
  sendJson(ctx.res, 200, { faults: state.config.faults, ...state.control }, ctx.responseHeaders);
}

function metricsAnswer(state: ServerState, ctx: RequestContext): void {
  const { metricsStatus, extraWaiting } = state.control;
  if (metricsStatus !== null && metricsStatus !== 200) {
    sendJson(
      ctx.res,
      metricsStatus,
      { error: "metrics unavailable (simulated)" },
      ctx.responseHeaders,
    );
    return;
  }
  const text = renderMetrics(state.config.model, state.load, extraWaiting);
  ctx.res.writeHead(200, {
    ...ctx.responseHeaders,
    "content-type": "text/plain; version=0.0.4; charset=utf-8",
  });
  ctx.res.end(text);
}

function modelsAnswer(state: ServerState, ctx: RequestContext): void {
  const { model, maxModelLen } = state.config;
  const entry = {
    id: model,
    object: "model",
    created: Math.floor(Date.now() / 1000),
    owned_by: "llmgw-sim",
    root: model,
    parent: null,
    max_model_len: maxModelLen ?? null,
  };
  // vLLM lists each adapter with its path as root and the base model as parent.
  const adapters = state.config.loraModules.map((lora) => ({
    ...entry,
    id: lora.name,
    root: lora.path,
    parent: model,
  }));
  sendJson(ctx.res, 200, { object: "list", data: [entry, ...adapters] }, ctx.responseHeaders);
}

function answerFailure(state: ServerState, ctx: RequestContext, error: unknown): void {
  if (error instanceof StreamDroppedError || ctx.signal.aborted) {
    ctx.res.destroy();
    return;
  }
  const httpError =
    error instanceof HttpError
      ? error
      : new HttpError(500, "internal error in the simulator", "server_error", "internal_error");
  if (!(error instanceof HttpError))
    state.log(
      `sim-engine: ${ctx.req.method ?? "?"} ${ctx.req.url ?? ""} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  if (ctx.res.headersSent) ctx.res.destroy();
  else sendError(ctx.res, httpError, ctx.responseHeaders);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
