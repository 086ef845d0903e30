// One attempt against one endpoint with undici's pooled Agent (never global fetch): the client's
// Authorization is replaced by the replica's key; the request id (vLLM takes it as its own and logs
// it) and, when tracing, the attempt's traceparent travel along.
import { messageOf } from "@llmgw/domain";
import type { IncomingHttpHeaders } from "node:http";
import { Agent, type Dispatcher } from "undici";
import { DispatchedBody, type UpstreamBody } from "./upstream-body";

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
      body: UpstreamBody;
    }
  | { kind: "connection-error"; message: string; code: string | undefined };

const PASSED_HEADERS = ["content-type", "cache-control", "retry-after"];

/**
 * Sends the attempt with undici's `dispatch` and a handler of its own rather than `request`: no
 * Readable per answer and no async resource, and the body's chunks go to the relay as they come.
 */
export function callUpstream(call: UpstreamCall): Promise<UpstreamResult> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${call.replicaKey}`,
    "x-request-id": call.requestId,
  };
  if (call.traceparent) headers.traceparent = call.traceparent;
  if (call.body) headers["content-type"] = "application/json";
  if (call.accept) headers.accept = call.accept;
  return new Promise((resolve) => {
    const target = originAndPath(call.url);
    if (!target.ok) {
      resolve({ kind: "connection-error", message: target.why, code: undefined });
      return;
    }
    const handler = new AttemptHandler(call.signal, resolve);
    if (call.signal.aborted) {
      handler.onResponseError(null, abortReason(call.signal));
      return;
    }
    call.agent.dispatch(
      { origin: target.origin, path: target.path, method: call.method, headers, body: call.body },
      handler,
    );
  });
}

/** One attempt's answer: its head resolves callUpstream, its body is filled as it arrives. */
class AttemptHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private body: DispatchedBody | null = null;
  private readonly onAbort = () => {
    const reason = abortReason(this.signal);
    if (this.controller) this.controller.abort(reason);
    else this.onResponseError(null, reason);
  };

  constructor(
    private readonly signal: AbortSignal,
    private resolveHead: ((result: UpstreamResult) => void) | null,
  ) {
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(abortReason(this.signal));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // A 1xx (100 Continue) comes before the answer's own head.
    if (statusCode < 200 || !this.resolveHead) return;
    const passed: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = headers[name];
      if (typeof value === "string") passed[name] = value;
    }
    const length = headers["content-length"];
    // The controller is the body's feed as it is (its pause, resume and abort): no closures per answer.
    this.body = new DispatchedBody(controller);
    const resolve = this.resolveHead;
    this.resolveHead = null;
    resolve({
      kind: "response",
      status: statusCode,
      headers: passed,
      length: typeof length === "string" ? length : undefined,
      body: this.body,
    });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.signal.removeEventListener("abort", this.onAbort);
    this.body?.end(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.signal.removeEventListener("abort", this.onAbort);
    if (this.body) {
      this.body.end(error);
      return;
    }
    const resolve = this.resolveHead;
    this.resolveHead = null;
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = (error as { code?: unknown }).code ?? cause?.code;
    resolve?.({
      kind: "connection-error",
      message: messageOf(error),
      code: typeof code === "string" ? code : undefined,
    });
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error("the request was aborted");
}

const ORIGIN = /^(https?:\/\/[^/?#@]+)(.*)$/i;

/** `http://host:port/path?query` split for dispatch; an address it cannot split is refused. */
export function originAndPath(
  url: string,
): { ok: true; origin: string; path: string } | { ok: false; why: string } {
  const match = ORIGIN.exec(url);
  if (match?.[1] !== undefined) {
    const rest = match[2] ?? "";
    return { ok: true, origin: match[1], path: rest.startsWith("/") ? rest : `/${rest}` };
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      return { ok: false, why: `${parsed.protocol} is not http or https` };
    return { ok: true, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  } catch {
    return { ok: false, why: "the endpoint's address is not a URL" };
  }
}
