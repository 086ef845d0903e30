export { appRouter, type AppRouter } from "./root";
export type { ApiContext, ApiServices, AuthService, NodesService } from "./context";
export * from "./schemas";

/** Path the server mounts the tRPC router on; the console proxies the same path. */
export const TRPC_PATH = "/api/trpc";
/** Name of the console's session cookie. */
export const SESSION_COOKIE = "llmgw_session";
