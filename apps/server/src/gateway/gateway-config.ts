// The gateway's settings as the server reads them, and the environment that turns tracing on:
// LLMGW_OTLP_ENDPOINT or OpenTelemetry's own OTEL_EXPORTER_OTLP_* variables.
import { z } from "zod";
import type { TracingConfig } from "./request-trace";

export interface GatewayConfig {
  /** Requests that may wait per model when every endpoint is at its in-flight limit. */
  queueSize: number;
  /** How long a request may wait in its model's queue before a 429. */
  queueWaitMs: number;
  /** Requests in flight per endpoint before new ones wait in the model's queue. */
  endpointMaxInFlight: number;
  /** How often each replica's /metrics is read for its waiting queue. */
  scrapeIntervalMs: number;
  /** How long a request for an on-demand model without a replica waits for one to get ready. */
  onDemandWaitMs: number;
  /** How long an on-demand model keeps its replica after the last request for it. */
  onDemandIdleMs: number;
  /** External model URLs may point at private and loopback addresses (never metadata services). */
  allowPrivateUpstreams: boolean;
  /**
   * The one directory external models' key files may come from (LLMGW_KEY_FILE_DIR); null turns
   * key files off, leaving keys sealed in the store.
   */
  keyFileDir: string | null;
  /** OpenTelemetry spans for /v1 requests (docs/gateway.md#tracing). */
  tracing: TracingConfig;
}

/** An OTLP/HTTP address: http(s), no user:password (a collector's token goes in headers). */
const otlpUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine(
      (value) => {
        if (value === undefined) return true;
        try {
          const url = new URL(value);
          return ["http:", "https:"].includes(url.protocol) && !url.username && !url.password;
        } catch {
          return false;
        }
      },
      {
        message: `${name} must be an http(s) address with no user:password, such as http://collector:4318/v1/traces`,
      },
    );

/** The environment variables tracing reads, checked with the rest of the server's settings. */
export const TRACING_ENV = {
  LLMGW_OTLP_ENDPOINT: otlpUrl("LLMGW_OTLP_ENDPOINT"),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl("OTEL_EXPORTER_OTLP_ENDPOINT"),
  LLMGW_TRACE_SAMPLE_RATIO: z.coerce
    .number({ message: "LLMGW_TRACE_SAMPLE_RATIO must be a number from 0 to 1" })
    .min(0, "LLMGW_TRACE_SAMPLE_RATIO must be at least 0")
    .max(1, "LLMGW_TRACE_SAMPLE_RATIO must be at most 1")
    .default(1),
  LLMGW_TRACE_EXPORT_DELAY_MS: z.coerce
    .number({ message: "LLMGW_TRACE_EXPORT_DELAY_MS must be a number" })
    .int()
    .min(100, "LLMGW_TRACE_EXPORT_DELAY_MS must be at least 100")
    .max(60_000, "LLMGW_TRACE_EXPORT_DELAY_MS must be at most 60000")
    .default(5_000),
};

type TracingEnv = z.output<z.ZodObject<typeof TRACING_ENV>>;

/**
 * Where spans go: LLMGW_OTLP_ENDPOINT, else OpenTelemetry's own settings (the traces endpoint as
 * given, or the base endpoint with /v1/traces); null when none is set.
 */
function tracesEndpoint(e: TracingEnv): string | null {
  if (e.LLMGW_OTLP_ENDPOINT) return e.LLMGW_OTLP_ENDPOINT;
  if (e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (e.OTEL_EXPORTER_OTLP_ENDPOINT)
    return `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
  return null;
}

export function tracingConfigFrom(e: TracingEnv): TracingConfig {
  return {
    endpoint: tracesEndpoint(e),
    sampleRatio: e.LLMGW_TRACE_SAMPLE_RATIO,
    exportDelayMs: e.LLMGW_TRACE_EXPORT_DELAY_MS,
  };
}
