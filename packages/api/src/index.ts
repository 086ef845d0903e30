export { appRouter, type AppRouter } from "./root";
export { ServiceError } from "./context";
export * from "./refusals";
export { RetryLaterError } from "./retry-later";
export { requestIdOf, internalErrorMessage } from "./internal-errors";
export { isControlCode, multiLine, oneLine } from "./text";
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
/**
 * The most calls one batched request may hold; the server answers 400 to more before doing any
 * of them, and the console's batch link splits at the same number.
 */
export const TRPC_BATCH_CALLS_MAX = 10;
/** The largest tRPC request body the server reads (model definitions and CA certificates fit). */
export const TRPC_BODY_BYTES_MAX = 1_048_576;
/** Name of the console's session cookie. */
export const SESSION_COOKIE = "llmgw_session";
