// The simulated engine's request log: one JSON line when a /v1 request arrives and one when it is
// answered, each carrying the X-Request-Id it was given. Modelled on vLLM, which takes that header
// as its request id and logs "Received request chatcmpl-<id>" (cmpl- for completions, embd- for
// embeddings); the lines say they come from the simulator. The arrival line also carries the W3C
// traceparent the gateway passed, as a traced engine would continue that trace.
const PREFIXES: Readonly<Record<string, string>> = {
  "/v1/chat/completions": "chatcmpl-",
  "/v1/completions": "cmpl-",
  "/v1/embeddings": "embd-",
  "/v1/images/generations": "img-",
};

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

interface RequestLogLine {
  nowMs: number;
  path: string;
  requestId: string | undefined;
  traceparent?: string;
  /** Absent on arrival; the status answered once it is done. */
  status?: number;
  durationMs?: number;
}

export function requestLogLine(entry: RequestLogLine): string {
  const named = entry.requestId ?? "-";
  const verb = entry.status === undefined ? "Received" : "Finished";
  return JSON.stringify({
    time: new Date(entry.nowMs).toISOString(),
    level: entry.status !== undefined && entry.status >= 500 ? "error" : "info",
    logger: "sim-engine (simulated)",
    msg: `${verb} request ${PREFIXES[entry.path] ?? ""}${named}`,
    ...(entry.requestId !== undefined && { request_id: entry.requestId }),
    path: entry.path,
    ...(entry.traceparent !== undefined &&
      TRACEPARENT.test(entry.traceparent) && { traceparent: entry.traceparent }),
    ...(entry.status !== undefined && { status: entry.status, duration_ms: entry.durationMs }),
  });
}
