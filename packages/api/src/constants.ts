// Numbers and names the server, the console and the CLI must agree on; browser-safe.

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
