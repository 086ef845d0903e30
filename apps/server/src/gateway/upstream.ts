// One attempt against one endpoint with undici's pooled Agent (never global fetch): the client's
// Authorization is replaced by the replica's key; the request id (vLLM takes it as its own and logs
// it) and, when tracing, the attempt's traceparent travel along.
import { messageOf } from "@llmgw/domain";
import { Agent, request, type Dispatcher } from "undici";

export function createUpstreamAgent(): Agent {
  // Keep-alive connections per replica; bodies are streamed, so no body timeout cuts a long stream.
  return new Agent({
    connections: 256,
    keepAliveTimeout: 30_000,
    headersTimeout: 300_000,
    bodyTimeout: 300_000,
  });
}

export interface UpstreamCall {
  agent: Dispatcher;
  url: string;
  method: "GET" | "POST";
  body: Buffer | null;
  /** The replica's derived key, or the provider's key for an external endpoint. */
  replicaKey: string;
  requestId: string;
  /** The attempt span's W3C traceparent, when the request is traced. */
  traceparent?: string;
  accept: string | undefined;
  signal: AbortSignal;
}

export type UpstreamResult =
  | {
      kind: "response";
      status: number;
      headers: Record<string, string>;
      /**
       * The engine's content-length, when it sent one: a relay that passes the body on unchanged
       * sends it too, so a small answer goes out in one write rather than as chunks and an end.
       */
      length: string | undefined;
      body: Dispatcher.ResponseData["body"];
    }
  | { kind: "connection-error"; message: string; code: string | undefined };

const PASSED_HEADERS = ["content-type", "cache-control", "retry-after"];

export async function callUpstream(call: UpstreamCall): Promise<UpstreamResult> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${call.replicaKey}`,
    "x-request-id": call.requestId,
  };
  if (call.traceparent) headers.traceparent = call.traceparent;
  if (call.body) headers["content-type"] = "application/json";
  if (call.accept) headers.accept = call.accept;
  try {
    const answer = await request(call.url, {
      dispatcher: call.agent,
      method: call.method,
      headers,
      body: call.body,
      signal: call.signal,
    });
    const passed: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = answer.headers[name];
      if (typeof value === "string") passed[name] = value;
    }
    const length = answer.headers["content-length"];
    return {
      kind: "response",
      status: answer.statusCode,
      headers: passed,
      length: typeof length === "string" ? length : undefined,
      body: answer.body,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = (error as { code?: unknown }).code ?? cause?.code;
    return {
      kind: "connection-error",
      message: messageOf(error),
      code: typeof code === "string" ? code : undefined,
    };
  }
}
