// Refusals the public port makes before a tRPC request reaches the router, so an anonymous caller
// cannot make the server do unbounded work: too many calls in one batch, or too large a body.
import type { IncomingMessage } from "node:http";
import { TRPC_BATCH_CALLS_MAX, TRPC_BODY_BYTES_MAX, TRPC_PATH } from "@llmgw/api";

export interface EarlyRefusal {
  status: number;
  code: string;
  message: string;
}

/** The procedures a request names: `a.b,c.d?batch=1` is two. */
function callCount(req: IncomingMessage, path: string): number {
  const isBatch = new URL(req.url ?? "/", "http://internal").searchParams.get("batch") === "1";
  return isBatch ? path.slice(TRPC_PATH.length + 1).split(",").length : 1;
}

export function trpcLimitRefusal(req: IncomingMessage, path: string): EarlyRefusal | null {
  const calls = callCount(req, path);
  if (calls > TRPC_BATCH_CALLS_MAX)
    return {
      status: 400,
      code: "BAD_REQUEST",
      message: `a batch may hold at most ${TRPC_BATCH_CALLS_MAX} calls, this one holds ${calls}; send them in several requests`,
    };
  const declaredBytes = Number(req.headers["content-length"] ?? 0);
  if (declaredBytes > TRPC_BODY_BYTES_MAX)
    return {
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
      message: `the request body is larger than ${TRPC_BODY_BYTES_MAX} bytes; no call takes that much`,
    };
  return null;
}
