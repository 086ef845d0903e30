// Answers in OpenAI's error shape, always as JSON, so the official SDKs parse them.
import type { ServerResponse } from "node:http";

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "rate_limit_error"
  | "server_error"
  | "service_unavailable";

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: ErrorType,
    readonly code: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * The client hung up before its answer began: recorded as 499, its own doing, never as a failure
 * of the endpoint or the gateway (a 502 there would tell an operator the replica failed).
 */
export function clientLeft(): GatewayError {
  return new GatewayError(499, "the client left", "invalid_request_error", "client_closed");
}

export function sendGatewayError(
  res: ServerResponse,
  error: GatewayError,
  requestId: string,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    error: { message: error.message, type: error.type, code: error.code, param: null },
  });
  res
    .writeHead(error.status, {
      ...error.headers,
      "content-type": "application/json",
      "x-request-id": requestId,
    })
    .end(body);
}
