// Small pieces of HTTP the handlers share: JSON bodies in and out, and errors in OpenAI's shape
// (`{"error":{"message","type","param","code"}}`) with content-type application/json, which the
// official clients need before they will read an error at all.
import { messageOf } from "@llmgw/domain";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";

const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  error: HttpError,
  headers: Record<string, string> = {},
): void {
  sendJson(
    res,
    error.status,
    { error: { message: error.message, type: error.type, param: error.param, code: error.code } },
    headers,
  );
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES)
      throw new HttpError(
        413,
        `request body is over ${BODY_LIMIT_BYTES} bytes`,
        "invalid_request_error",
      );
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "")
    throw new HttpError(400, "request body is empty; send a JSON object", "invalid_request_error");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const why = messageOf(error);
    throw new HttpError(400, `request body is not valid JSON: ${why}`, "invalid_request_error");
  }
}

/** Parses a body with a schema; a failure names the first offending field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join(".") ?? "";
  const message =
    field === ""
      ? `invalid request: ${issue?.message ?? "bad body"}`
      : `invalid field "${field}": ${issue?.message ?? "bad value"}`;
  const isMissing = issue?.code === "invalid_type" && /received undefined/.test(issue.message);
  throw new HttpError(
    400,
    message,
    "invalid_request_error",
    isMissing ? "missing_required_parameter" : "invalid_value",
    field || null,
  );
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}
