// OpenTelemetry spans for each /v1 request, exported over OTLP (protobuf over HTTP) when an
// endpoint is set: the request's own span, named and labelled by the GenAI semantic conventions
// (operation, model, sampling settings read loosely from the body, token usage), with a span for
// admission, the queue, each attempt on an endpoint and the upstream answer, and an event at the
// answer's first byte. A caller's W3C `traceparent` makes the request a child of the caller's trace,
// and each attempt hands its own `traceparent` on to the engine, so an engine that traces (vLLM with
// --otlp-traces-endpoint) continues the same trace.
// No prompt or answer text is ever put on a span.
import {
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import type { IncomingHttpHeaders } from "node:http";
import { SERVER_VERSION } from "../version";
import type { SamplingSettings } from "./request-body";

export interface TracingConfig {
  /** Where spans go (`http://collector:4318/v1/traces`); null: tracing is off. */
  endpoint: string | null;
  /** The share of requests traced that no caller's trace decided for (0 to 1). */
  sampleRatio: number;
  /** How long finished spans wait to be sent together. */
  exportDelayMs: number;
}

/** What a finished request adds to its span. */
interface TraceOutcome {
  status: number;
  model: string;
  replicaId: string | null;
  promptTokens: number;
  completionTokens: number;
  firstByteAtMs: number | null;
  endMs: number;
}

/** A span the caller ends; `traceparent` is the W3C header naming it, absent when not tracing. */
interface OpenSpan {
  end(status: number | string): void;
  traceparent(): string | undefined;
}

export interface RequestTrace {
  /** A child span for one step; ended with the status it gives (an error status when it throws). */
  step<T>(name: string, attributes: Attributes, run: () => Promise<T>): Promise<T>;
  /** A child span the caller ends: an attempt, the upstream answer. */
  open(name: string, attributes: Attributes): OpenSpan;
  finish(outcome: TraceOutcome): void;
}

const NO_SPAN: OpenSpan = { end: () => undefined, traceparent: () => undefined };

/** The trace of a request when tracing is off: every call does nothing. */
const NO_TRACE: RequestTrace = {
  step: (_name, _attributes, run) => run(),
  open: () => NO_SPAN,
  finish: () => undefined,
};

/** `/v1/chat/completions` → the GenAI operation name. */
const OPERATIONS: Readonly<Record<string, string>> = {
  "/v1/chat/completions": "chat",
  "/v1/completions": "text_completion",
  "/v1/embeddings": "embeddings",
  "/v1/images/generations": "generate_content",
};

const SAMPLING_ATTRIBUTES: Readonly<Record<keyof SamplingSettings, string>> = {
  temperature: "gen_ai.request.temperature",
  top_p: "gen_ai.request.top_p",
  max_tokens: "gen_ai.request.max_tokens",
};

const errorStatus = (status: number | string) =>
  typeof status === "string" || status >= 500 || status === 0;

function endWith(span: Span, status: number | string, endMs?: number): void {
  if (typeof status === "number" && status > 0)
    span.setAttribute("http.response.status_code", status);
  if (errorStatus(status)) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(status) });
    span.setAttribute("error.type", String(status));
  }
  span.end(endMs);
}

class LiveRequestTrace implements RequestTrace {
  private readonly inside: Context;

  constructor(
    private readonly tracer: Tracer,
    private readonly root: Span,
  ) {
    this.inside = trace.setSpan(ROOT_CONTEXT, root);
  }

  async step<T>(name: string, attributes: Attributes, run: () => Promise<T>): Promise<T> {
    const span = this.tracer.startSpan(name, { attributes }, this.inside);
    try {
      const result = await run();
      span.end();
      return result;
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      endWith(span, typeof status === "number" ? status : "error");
      throw error;
    }
  }

  open(name: string, attributes: Attributes): OpenSpan {
    const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, this.inside);
    return { end: (status) => endWith(span, status), traceparent: () => traceparentOf(span) };
  }

  finish(outcome: TraceOutcome): void {
    const { root } = this;
    if (outcome.firstByteAtMs !== null)
      root.addEvent("llmgw.first_byte", {}, outcome.firstByteAtMs);
    root.setAttributes({
      "gen_ai.response.model": outcome.model,
      "gen_ai.usage.input_tokens": outcome.promptTokens,
      "gen_ai.usage.output_tokens": outcome.completionTokens,
      ...(outcome.replicaId !== null && { "llmgw.replica": outcome.replicaId }),
    });
    endWith(root, outcome.status, outcome.endMs);
  }
}

export interface RequestTracer {
  start(input: {
    path: string;
    model: string;
    requestId: string;
    isStream: boolean;
    sampling: SamplingSettings;
    headers: IncomingHttpHeaders;
    startMs: number;
  }): RequestTrace;
  /** Sends what is still waiting and stops. */
  stop(): Promise<void>;
}

const OFF: RequestTracer = { start: () => NO_TRACE, stop: async () => undefined };

const propagator = new W3CTraceContextPropagator();

/** The `traceparent` header naming `span`; a span not sampled is named too, its flag saying so. */
function traceparentOf(span: Span): string | undefined {
  const carrier: Record<string, string> = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
  return carrier.traceparent;
}
const headerGetter = {
  keys: (carrier: IncomingHttpHeaders) => Object.keys(carrier),
  get: (carrier: IncomingHttpHeaders, key: string) => carrier[key],
};

export function startRequestTracer(config: TracingConfig): RequestTracer {
  if (config.endpoint === null) return OFF;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": "llmgw",
      "service.version": SERVER_VERSION,
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRatio) }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: config.endpoint }),
        scheduledDelayMillis: config.exportDelayMs,
      }),
    ],
  });
  const tracer = provider.getTracer("llmgw.gateway", SERVER_VERSION);
  return {
    start(input) {
      const operation = OPERATIONS[input.path] ?? "chat";
      const caller = propagator.extract(ROOT_CONTEXT, input.headers, headerGetter);
      const attributes: Attributes = {
        "gen_ai.operation.name": operation,
        "gen_ai.request.model": input.model,
        "llmgw.request_id": input.requestId,
        "llmgw.stream": input.isStream,
        "url.path": input.path,
      };
      for (const [name, value] of Object.entries(input.sampling))
        attributes[SAMPLING_ATTRIBUTES[name as keyof SamplingSettings]] = value;
      const root = tracer.startSpan(
        `${operation} ${input.model}`,
        { kind: SpanKind.SERVER, attributes, startTime: input.startMs },
        caller,
      );
      return new LiveRequestTrace(tracer, root);
    },
    stop: () => provider.shutdown(),
  };
}
