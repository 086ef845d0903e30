import { describe, expect, it } from "vitest";
import { recordJsonLine, requestNamedIn, toLogRecord } from "./log-record";

const READ_AT_MS = Date.parse("2026-12-02T10:00:00.000Z");

describe("toLogRecord", () => {
  it("reads a JSON line: its time, level, message and request id", () => {
    const line = JSON.stringify({
      time: "2026-12-02T09:59:58.250Z",
      level: "WARNING",
      msg: "Received request chatcmpl-req-1",
      request_id: "req-1",
    });
    expect(toLogRecord(line, "r-1", READ_AT_MS)).toEqual({
      timeMs: Date.parse("2026-12-02T09:59:58.250Z"),
      source: "r-1",
      level: "warn",
      message: "Received request chatcmpl-req-1",
      requestId: "req-1",
    });
  });

  it("reads Python's epoch seconds and other loggers' names for the fields", () => {
    const line = JSON.stringify({ ts: 1_764_669_600.5, levelname: "CRITICAL", message: "oom" });
    expect(toLogRecord(line, "r-1", READ_AT_MS)).toEqual({
      timeMs: 1_764_669_600_500,
      source: "r-1",
      level: "error",
      message: "oom",
    });
  });

  it("does not take a request id the gateway could never have given", () => {
    const line = JSON.stringify({ msg: "x", request_id: "a b\nforged" });
    expect(toLogRecord(line, "r-1", READ_AT_MS).requestId).toBeUndefined();
  });

  it("reads the agent's own lines", () => {
    const line =
      '2026-12-02T09:00:00.000Z error replica failed replica=r-1 request_id=abc-9 why="x"';
    expect(toLogRecord(line, "agent", READ_AT_MS)).toEqual({
      timeMs: Date.parse("2026-12-02T09:00:00.000Z"),
      source: "agent",
      level: "error",
      message: 'replica failed replica=r-1 request_id=abc-9 why="x"',
      requestId: "abc-9",
    });
  });

  it("reads vLLM's lines and the request each names behind its endpoint's prefix", () => {
    const received =
      "(APIServer pid=4121) INFO 12-02 09:59:58 [logger.py:43] Received request chatcmpl-7f3e-aa: prompt: '<|im_start|>…', params: SamplingParams(n=1)";
    expect(toLogRecord(received, "r-2", READ_AT_MS)).toMatchObject({
      timeMs: READ_AT_MS,
      level: "info",
      requestId: "7f3e-aa",
    });
    const completion =
      "INFO 12-02 09:59:58 [logger.py:43] Received request cmpl-req-7-0: prompt: 'a'";
    expect(toLogRecord(completion, "r-2", READ_AT_MS).requestId).toBe("req-7");
    const aborted = "INFO 12-02 10:00:01 [async_llm.py:410] Aborted request chatcmpl-req-8.";
    expect(toLogRecord(aborted, "r-2", READ_AT_MS).requestId).toBe("req-8");
    const warning = "WARNING 12-02 10:00:02 [scheduler.py:1] Sequence group preempted";
    expect(toLogRecord(warning, "r-2", READ_AT_MS)).toMatchObject({ level: "warn" });
    expect(toLogRecord(warning, "r-2", READ_AT_MS).requestId).toBeUndefined();
  });

  it("reads llama.cpp's prefixed lines, and keeps a line it cannot read as info", () => {
    const llama = "0.01.536.077 E srv  load_model: failed to load model";
    expect(toLogRecord(llama, "r-3", READ_AT_MS)).toEqual({
      timeMs: READ_AT_MS,
      source: "r-3",
      level: "error",
      message: "srv  load_model: failed to load model",
    });
    const plain = "srv  log_server_r: request: POST /v1/chat/completions 127.0.0.1 200";
    expect(toLogRecord(plain, "r-3", READ_AT_MS)).toEqual({
      timeMs: READ_AT_MS,
      source: "r-3",
      level: "info",
      message: plain,
    });
    expect(toLogRecord("{not json", "r-3", READ_AT_MS).message).toBe("{not json");
  });
});

describe("requestNamedIn", () => {
  it("finds `request_id=`, `X-Request-Id:` and quoted forms, and nothing in a line naming none", () => {
    expect(requestNamedIn("answer broke off request_id=r.1:2")).toBe("r.1:2");
    expect(requestNamedIn("headers X-Request-Id: abc")).toBe("abc");
    expect(requestNamedIn('{"requestId": "q-5"} in text')).toBe("q-5");
    expect(requestNamedIn("Received request")).toBeUndefined();
    expect(requestNamedIn("a request was made")).toBeUndefined();
  });
});

describe("recordJsonLine", () => {
  it("writes snake_case fields and leaves request_id out when there is none", () => {
    const base = { timeMs: 5, source: "agent", level: "info" as const, message: "m" };
    expect(JSON.parse(recordJsonLine(base))).toEqual({
      time_ms: 5,
      source: "agent",
      level: "info",
      message: "m",
    });
    expect(JSON.parse(recordJsonLine({ ...base, requestId: "q" })).request_id).toBe("q");
  });
});
