// Reads and checks a /v1 request body before anything goes upstream: bounded size, valid JSON, an
// object with a model name. Every refusal is a 4xx that names the problem.
import { messageOf } from "@llmgw/domain";
import type { IncomingMessage } from "node:http";
import { GatewayError } from "./errors";

const BODY_BYTES_MAX = 16 * 1024 * 1024;

export interface V1Body {
  raw: Buffer;
  model: string;
  isStream: boolean;
  /** The client set `stream_options.include_usage`: it wants the last chunk that carries usage. */
  wantsUsage: boolean;
  /** For the request's trace span. */
  sampling: SamplingSettings;
}

/** The sampling settings a body asked for, read loosely: a number is kept, anything else is not. */
export interface SamplingSettings {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

const SAMPLING_NAMES = ["temperature", "top_p", "max_tokens"] as const;

function samplingOf(body: Record<string, unknown>): SamplingSettings {
  const settings: SamplingSettings = {};
  for (const name of SAMPLING_NAMES) {
    const value = body[name];
    if (typeof value === "number" && Number.isFinite(value)) settings[name] = value;
  }
  return settings;
}

/** Paths whose streamed answers can end with a usage chunk (OpenAI's `stream_options`). */
const USAGE_STREAM_PATHS: ReadonlySet<string> = new Set([
  "/v1/chat/completions",
  "/v1/completions",
]);

/**
 * The whole body, read with plain listeners (an async iterator costs promises per chunk). Past
 * `bytesMax` the request is destroyed, nothing more is read, and the answer is a 413 naming the
 * bound; a request that fails or closes before its end rejects with that failure.
 */
export function readBody(req: IncomingMessage, bytesMax = BODY_BYTES_MAX): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: unknown, body?: Buffer) => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      if (body) resolve(body);
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= bytesMax) {
        chunks.push(chunk);
        return;
      }
      req.destroy();
      settle(
        new GatewayError(
          413,
          `the request body is larger than ${bytesMax} bytes`,
          "invalid_request_error",
          "request_too_large",
        ),
      );
    };
    req.on("data", onData);
    // A small body comes in one chunk: it is taken as it is rather than copied.
    req.on("end", () =>
      settle(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)),
    );
    req.on("error", (error) => settle(error));
    // Every request closes, most after their body was read: the Error (and its stack) is made only
    // for one that closed first.
    req.on("close", () => {
      if (!settled) settle(new Error("the request closed before its body ended"));
    });
  });
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
    throw invalid(`the body is not valid JSON: ${messageOf(error)}`, "invalid_json");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw invalid("the body must be a JSON object");
  const {
    model,
    stream,
    stream_options: streamOptions,
  } = parsed as {
    model?: unknown;
    stream?: unknown;
    stream_options?: unknown;
  };
  if (model === undefined)
    throw invalid("you must provide a model parameter", "missing_required_parameter");
  if (typeof model !== "string" || model.length === 0 || model.length > 256)
    throw invalid("model must be a non-empty string of at most 256 characters");
  if (stream !== undefined && stream !== null && typeof stream !== "boolean")
    throw invalid("stream must be true or false");
  const wantsUsage =
    typeof streamOptions === "object" &&
    streamOptions !== null &&
    (streamOptions as { include_usage?: unknown }).include_usage === true;
  const sampling = samplingOf(parsed as Record<string, unknown>);
  return { raw, model, isStream: stream === true, wantsUsage, sampling };
}

/**
 * The body the engine is sent: the serving model's name, and for a streamed chat or completion
 * `stream_options.include_usage` set, so every streamed answer ends with its token counts whether
 * or not the client asked (the gateway counts them and drops that chunk for a client that did
 * not). Other stream options the client set are kept; a malformed one is left for the engine to
 * refuse. Untouched when nothing changes, so most bodies are sent as they came.
 */
export function upstreamBody(body: V1Body, path: string, model: string): Buffer {
  const asksUsage = body.isStream && !body.wantsUsage && USAGE_STREAM_PATHS.has(path);
  if (model === body.model && !asksUsage) return body.raw;
  const parsed = JSON.parse(body.raw.toString("utf8")) as Record<string, unknown>;
  const options = parsed.stream_options;
  const canAsk = options === undefined || options === null || isPlainObject(options);
  const next: Record<string, unknown> = { ...parsed, model };
  if (asksUsage && canAsk)
    next.stream_options = { ...(isPlainObject(options) ? options : {}), include_usage: true };
  return Buffer.from(JSON.stringify(next));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
