export { appRouter, type AppRouter } from "./root";
export { ServiceError } from "./context";
export { RetryLaterError } from "./retry-later";
export { requestIdOf, internalErrorMessage } from "./internal-errors";
export { multiLine, oneLine } from "./text";
export type {
  Actor,
  ApiContext,
  ApiServices,
  AuditService,
  AuthService,
  EventsService,
  PeopleService,
  SignInSetupService,
  KeysService,
  LogsService,
  McpService,
  ModelsService,
  NodesService,
  ReclaimService,
  ReplicasService,
  StatusService,
  UsageService,
} from "./context";
export * from "./schemas";
export * from "./schemas-models";
export * from "./schemas-keys";
export * from "./schemas-usage";
export * from "./schemas-events";
export * from "./schemas-identity";
export * from "./schemas-signin";
export * from "./schemas-mcp";

/** Path the server mounts the tRPC router on; the console proxies the same path. */
export const TRPC_PATH = "/api/trpc";
/** Name of the console's session cookie. */
export const SESSION_COOKIE = "llmgw_session";
