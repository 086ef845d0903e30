// The public HTTP port: the OpenAI-compatible /v1 gateway, tRPC for the console and CLI, health
// probes and metrics, and /mcp, the MCP gateway. Later issues add /scim and /auth here.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import {
  appRouter,
  internalErrorMessage,
  requestIdOf,
  RetryLaterError,
  TRPC_BATCH_CALLS_MAX,
  TRPC_BODY_BYTES_MAX,
  TRPC_PATH,
  type ApiContext,
} from "@llmgw/api";
import { RELEASE_UPLOAD_PREFIX } from "../releases/release-routes";
import { SERVER_VERSION } from "../version";
import { crossSiteRefusal } from "./context";
import { trpcLimitRefusal } from "./trpc-limits";
import { sendJson } from "./send-json";

export interface HttpServerOptions {
  host: string;
  port: number;
  createContext(req: IncomingMessage, res: ServerResponse): Promise<ApiContext>;
  isReady(): boolean;
  metrics(): Promise<{ contentType: string; body: string }>;
  /** LLMGW_METRICS_TOKEN: /metrics answers only `Authorization: Bearer <token>`; null leaves it open. */
  metricsToken?: string | null;
  /** Handles every path under /v1/. */
  v1(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** Handles every path under /scim/v2 (provisioning). */
  scim(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Handles every path under /auth/ (single sign-on redirects). */
  auth(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** Handles /mcp. */
  mcp(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Handles every path under /api/releases/ (release uploads). */
  releases(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** On a standby, passes `/api/` requests to the leader; true when it took the request. */
  forwardApi?(req: IncomingMessage, res: ServerResponse): boolean;
  log(line: string): void;
}

export interface HttpServer {
  port: number;
  /** The port's request handler, for requests that arrive another way (a standby's, relayed). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: `${TRPC_PATH}/`,
    maxBatchSize: TRPC_BATCH_CALLS_MAX,
    maxBodySize: TRPC_BODY_BYTES_MAX,
    createContext: ({ req, res }) => options.createContext(req, res),
    // The client saw only the request id; the detail goes to the log under the same id.
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR")
        options.log(
          `tRPC ${path ?? "?"} failed (request id ${requestIdOf(error)}): ${error.cause?.stack ?? error.message}`,
        );
    },
    responseMeta: ({ errors }) => {
      const retryAfterS = errors
        .map((e) => (e.cause instanceof RetryLaterError ? e.cause.retryAfterS : 0))
        .reduce((a, b) => Math.max(a, b), 0);
      return retryAfterS > 0 ? { headers: { "retry-after": String(retryAfterS) } } : {};
    },
  });
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    setSecurityHeaders(res);
    route(req, res, trpc, options).catch((error: unknown) => {
      const requestId = randomUUID();
      options.log(
        `request ${req.method} ${req.url} failed (request id ${requestId}): ${(error as Error).stack ?? String(error)}`,
      );
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: internalErrorMessage(requestId), requestId } });
    });
  };
  const server: Server = createServer(handle);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    handle,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  trpc: ReturnType<typeof createHTTPHandler>,
  options: HttpServerOptions,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  if (path.startsWith("/v1/")) return options.v1(req, res, path);
  if (path.startsWith("/auth/")) return options.auth(req, res, path);
  if (path === "/scim/v2" || path.startsWith("/scim/v2/")) return options.scim(req, res);
  if (path === "/mcp") return options.mcp(req, res);
  // The console's and the CLI's API answer from the leader's live view; a standby passes them on.
  if (path.startsWith("/api/") && options.forwardApi?.(req, res)) return;
  if (path.startsWith(RELEASE_UPLOAD_PREFIX)) return options.releases(req, res, path);
  if (path.startsWith(`${TRPC_PATH}/`)) {
    const early = trpcLimitRefusal(req, path);
    if (early) {
      // The body is never buffered or parsed; Node drops what still arrives.
      return sendJson(res, early.status, {
        error: { message: early.message, data: { code: early.code, httpStatus: early.status } },
      });
    }
    const refusal = crossSiteRefusal(req);
    if (refusal)
      return sendJson(res, 403, { error: { message: refusal, data: { code: "FORBIDDEN" } } });
    trpc(req, res);
    return;
  }
  // The version lets `ctl upgrade` see the restarted control plane run the new release.
  if (path === "/healthz") return sendJson(res, 200, { ok: true, version: SERVER_VERSION });
  if (path === "/ready") {
    return options.isReady()
      ? sendJson(res, 200, { ready: true })
      : sendJson(res, 503, { ready: false });
  }
  if (path === "/metrics") {
    if (options.metricsToken && !bearerMatches(req, options.metricsToken)) {
      res.setHeader("www-authenticate", 'Bearer realm="llmgw metrics"');
      return sendJson(res, 401, {
        error: {
          message:
            "/metrics needs Authorization: Bearer <the server's LLMGW_METRICS_TOKEN> " +
            "(Prometheus: authorization.credentials in the scrape config)",
          type: "unauthorized",
        },
      });
    }
    const { contentType, body } = await options.metrics();
    res.writeHead(200, { "content-type": contentType }).end(body);
    return;
  }
  sendJson(res, 404, {
    error: { message: `no route for ${req.method ?? "GET"} ${path}`, type: "not_found" },
  });
}

/** The request's bearer token equals `expected`, compared in constant time. */
function bearerMatches(req: IncomingMessage, expected: string): boolean {
  const presented = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim() ?? "";
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The port answers JSON only: nothing it sends may be framed by another site, sniffed into HTML,
 * or run scripts.
 */
function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader("content-security-policy", "default-src 'none'; frame-ancestors 'none'");
  res.setHeader("x-frame-options", "DENY");
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("referrer-policy", "no-referrer");
}
