// An OTLP/HTTP trace receiver for tests: a real HTTP server on loopback that takes what an
// exporter POSTs to /v1/traces and decodes it with the official OTLP protobuf definitions
// (packages/testing/otlp-proto, compiled by buf), the way a collector would read it.
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { createFileRegistry, fromBinary, toJson, type JsonValue } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const PROTO_DIR = fileURLToPath(new URL("../otlp-proto", import.meta.url));
const REQUEST = "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest";

let registry: ReturnType<typeof createFileRegistry> | null = null;

function otlpRegistry(): ReturnType<typeof createFileRegistry> {
  if (registry) return registry;
  const buf = createRequire(import.meta.url).resolve("@bufbuild/buf/bin/buf");
  const image = execFileSync(buf, ["build", PROTO_DIR, "--as-file-descriptor-set", "-o", "-"], {
    maxBuffer: 16 * 1024 * 1024,
  });
  registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, image));
  return registry;
}

/** One exported span in protobuf's JSON mapping, its ids turned to hex as OTLP/JSON writes them. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: Array<{ key: string; value: Record<string, JsonValue> }>;
  events?: Array<{ name: string; timeUnixNano: string }>;
  status?: { code?: string; message?: string };
}

/** An ExportTraceServiceRequest body → its spans, each with its resource's attributes. */
function decodeOtlpTraces(
  body: Uint8Array,
): Array<{ resource: Record<string, JsonValue>; span: OtlpSpan }> {
  const schema = otlpRegistry().getMessage(REQUEST);
  if (!schema) throw new Error(`${REQUEST} is not in the OTLP definitions`);
  const json = toJson(schema, fromBinary(schema, body), {
    registry: otlpRegistry(),
  }) as {
    resourceSpans?: Array<{
      resource?: { attributes?: Array<{ key: string; value: Record<string, JsonValue> }> };
      scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
    }>;
  };
  return (json.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = Object.fromEntries(
      (resourceSpans.resource?.attributes ?? []).map((a) => [
        a.key,
        Object.values(a.value)[0] ?? null,
      ]),
    );
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({ resource, span: withHexIds(span) })),
    );
  });
}

const hex = (base64: string | undefined) =>
  base64 === undefined ? undefined : Buffer.from(base64, "base64").toString("hex");

function withHexIds(span: OtlpSpan): OtlpSpan {
  const parentSpanId = hex(span.parentSpanId);
  return {
    ...span,
    traceId: hex(span.traceId) ?? "",
    spanId: hex(span.spanId) ?? "",
    ...(parentSpanId ? { parentSpanId } : {}),
  };
}

/** A span's attributes as a plain record: `{ "gen_ai.request.model": "chat", … }`. */
export function otlpAttributes(span: OtlpSpan): Record<string, JsonValue> {
  return Object.fromEntries(
    (span.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0] ?? null]),
  );
}

export interface OtlpReceiver {
  /** The address to export to, `http://127.0.0.1:PORT/v1/traces`. */
  url: string;
  spans: Array<{ resource: Record<string, JsonValue>; span: OtlpSpan }>;
  /** Content types of the POSTs received, to show the export was protobuf. */
  contentTypes: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: OtlpReceiver["spans"] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(req.headers["content-type"] ?? "");
      spans.push(...decodeOtlpTraces(Buffer.concat(chunks)));
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
