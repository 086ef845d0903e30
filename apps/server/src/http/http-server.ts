// The public HTTP port: the OpenAI-compatible /v1 gateway, tRPC for the console and CLI, health
// probes and metrics, and /mcp, the MCP gateway. Later issues add /scim and /auth here.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { appRouter, TRPC_PATH, type ApiContext } from "@llmgw/api";
import { crossSiteRefusal } from "./context";

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
  log(line: string): void;
}

export interface HttpServer {
  port: number;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: `${TRPC_PATH}/`,
    createContext: ({ req, res }) => options.createContext(req, res),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR")
        options.log(`tRPC ${path ?? "?"} failed: ${error.message}`);
    },
  });
  const server: Server = createServer((req, res) => {
    route(req, res, trpc, options).catch((error: unknown) => {
      options.log(`request ${req.method} ${req.url} failed: ${(error as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, { error: { message: "internal error" } });
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
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
  if (path.startsWith(`${TRPC_PATH}/`)) {
    const refusal = crossSiteRefusal(req);
    if (refusal)
      return sendJson(res, 403, { error: { message: refusal, data: { code: "FORBIDDEN" } } });
    trpc(req, res);
    return;
  }
  if (path === "/healthz") return sendJson(res, 200, { ok: true });
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

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
