// Where the browser sends tRPC calls. It mirrors TRPC_PATH of @llmgw/api as a literal because
// @llmgw/api's entry point also exports the router, and importing it at run time would pull
// @trpc/server into the browser bundle, which refuses to load there. A unit test keeps the two equal.
export const CONSOLE_TRPC_PATH = "/api/trpc";
/** The console's own route answering its and the control plane's public addresses. */
export const CONSOLE_ADDRESSES_PATH = "/api/addresses";
/** TRPC_BATCH_CALLS_MAX of @llmgw/api: the server refuses larger batches, so the link splits. */
export const CONSOLE_BATCH_CALLS_MAX = 10;
