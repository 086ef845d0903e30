import { describe, expect, it } from "vitest";
import { requestLogLine } from "./request-log";

const NOW_MS = Date.parse("2026-12-02T10:00:00.000Z");
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("the simulated engine's request log", () => {
  it("writes one JSON line on arrival naming the request as vLLM does, with its traceparent", () => {
    const line = requestLogLine({
      nowMs: NOW_MS,
      path: "/v1/chat/completions",
      requestId: "req-1",
      traceparent: TRACEPARENT,
    });
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      time: "2026-12-02T10:00:00.000Z",
      level: "info",
      logger: "sim-engine (simulated)",
      msg: "Received request chatcmpl-req-1",
      request_id: "req-1",
      path: "/v1/chat/completions",
      traceparent: TRACEPARENT,
    });
  });

  it("writes the answer's status and time when done, as an error past 499", () => {
    const line = requestLogLine({
      nowMs: NOW_MS,
      path: "/v1/completions",
      requestId: "req-2",
      status: 503,
      durationMs: 12,
    });
    expect(JSON.parse(line)).toMatchObject({
      level: "error",
      msg: "Finished request cmpl-req-2",
      status: 503,
      duration_ms: 12,
    });
  });

  it("names no request when none was given, and drops a traceparent that is not one", () => {
    const line = JSON.parse(
      requestLogLine({
        nowMs: NOW_MS,
        path: "/v1/embeddings",
        requestId: undefined,
        traceparent: "x\ny",
      }),
    ) as Record<string, unknown>;
    expect(line.msg).toBe("Received request embd--");
    expect(line).not.toHaveProperty("request_id");
    expect(line).not.toHaveProperty("traceparent");
  });
});
