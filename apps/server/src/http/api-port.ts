// The public HTTP port as main.ts starts it: tRPC over the API services, the /v1 gateway, SCIM,
// the /auth routes, /mcp and /metrics, each handed the pieces it answers from. On a standby, /api
// goes to the leader instead (standby/leader-proxy).
import type { Database } from "@llmgw/db";
import type { ServerConfig } from "../config";
import { handleAuthRoute, publicOrigin } from "../identity/auth-routes";
import { handleScim } from "../identity/scim/scim-routes";
import type { EventRecorder } from "../events/event-recorder";
import type { ServerMetrics } from "../metrics";
import { handleReleaseUpload } from "../releases/release-routes";
import type { ApiWiring } from "./api-services";
import { createContext } from "./context";
import { startHttpServer, type HttpServer, type HttpServerOptions } from "./http-server";
import { createLeaderProxy, type LeaderProxyOptions } from "../standby/leader-proxy";

export interface ApiPortOptions {
  db: Database;
  config: Pick<ServerConfig, "httpHost" | "httpPort" | "metricsToken" | "sessionTtlMs">;
  api: ApiWiring;
  metrics: Pick<ServerMetrics, "registry">;
  v1: HttpServerOptions["v1"];
  events: Pick<EventRecorder, "record">;
  /** Whether this process leads, where the leader is, and this control plane's TLS identity. */
  standby: Omit<LeaderProxyOptions, "log" | "connectTimeoutMs">;
  nowMs(): number;
  log(line: string): void;
}

export async function startApiPort(options: ApiPortOptions): Promise<HttpServer> {
  const { db, config, api, metrics, nowMs, log } = options;
  const leader = createLeaderProxy({ ...options.standby, log });
  const server = await startHttpServer({
    host: config.httpHost,
    port: config.httpPort,
    isReady: () => true,
    log,
    createContext: (req, res) => createContext(req, res, api.services, api.sessionUser),
    metrics: async () => ({
      contentType: metrics.registry.contentType,
      body: await metrics.registry.metrics(),
    }),
    metricsToken: config.metricsToken,
    v1: options.v1,
    scim: (req, res) =>
      handleScim(req, res, { store: api.signInStore, origin: publicOrigin(req), nowMs, log }),
    auth: (req, res, path) =>
      handleAuthRoute(req, res, path, {
        db,
        entra: api.entra,
        sessionTtlMs: config.sessionTtlMs,
        nowMs,
        log,
      }),
    mcp: api.mcp.handler(api.services),
    releases: (req, res, path) =>
      handleReleaseUpload(req, res, path, {
        store: api.releaseStore,
        sessionUser: api.sessionUser,
        events: options.events,
        log,
      }),
    forwardApi: leader.forward,
  });
  return {
    ...server,
    close: async () => {
      leader.close();
      await server.close();
    },
  };
}
