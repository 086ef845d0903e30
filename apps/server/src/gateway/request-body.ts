// Reads and checks a /v1 request body before anything goes upstream: bounded size, valid JSON, an
// object with a model name. Every refusal is a 4xx that names the problem.
import type { IncomingMessage } from "node:http";
import { GatewayError } from "./errors";

export const BODY_BYTES_MAX = 16 * 1024 * 1024;

export interface V1Body {
  raw: Buffer;
  model: string;
  isStream: boolean;
}

export async function readBody(req: IncomingMessage, bytesMax = BODY_BYTES_MAX): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > bytesMax)
      throw new GatewayError(
        413,
        `the request body is larger than ${bytesMax} bytes`,
        "invalid_request_error",
        "request_too_large",
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const invalid = (message: string, code = "invalid_value") =>
  new GatewayError(400, message, "invalid_request_error", code);

export function parseV1Body(raw: Buffer, contentType: string | undefined): V1Body {
  if (contentType !== undefined && !/^application\/json\b/i.test(contentType.trim())) {
    throw invalid(
      `the body must be JSON (content-type: application/json), not ${contentType}`,
      "invalid_content_type",
    );
  }
  if (raw.length === 0)
    throw invalid(
      "the request body is empty; send a JSON object with a model",
      "missing_required_parameter",
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw invalid(`the body is not valid JSON: ${(error as Error).message}`, "invalid_json");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw invalid("the body must be a JSON object");
  const { model, stream } = parsed as { model?: unknown; stream?: unknown };
  if (model === undefined)
    throw invalid("you must provide a model parameter", "missing_required_parameter");
  if (typeof model !== "string" || model.length === 0 || model.length > 256)
    throw invalid("model must be a non-empty string of at most 256 characters");
  if (stream !== undefined && stream !== null && typeof stream !== "boolean")
    throw invalid("stream must be true or false");
  return { raw, model, isStream: stream === true };
}
