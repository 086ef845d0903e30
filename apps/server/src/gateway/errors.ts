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
