// A log line as a record: when, how serious, what it says and which request it names. Lines come in
// the forms the node's processes write them: JSON lines (the simulated engine, most structured
// loggers), the agent's own `TIME LEVEL event k=v` lines, vLLM's `INFO 01-02 03:04:05 [file.py:12]`
// lines with their "Received request chatcmpl-<id>" entries, and llama.cpp's `I`/`W`/`E` prefixed
// lines. What cannot be read is still kept, as an info line at the time the agent read it.
import type { LogLevel } from "./log-ring";

export interface LogRecord {
  timeMs: number;
  /** "agent" or the replica id whose engine wrote the line. */
  source: string;
  level: LogLevel;
  message: string;
  /** The request the line names (the gateway's X-Request-Id), when it names one. */
  requestId?: string;
}

/** The request ids the gateway gives and accepts: the same characters, the same length. */
const REQUEST_ID_CHARS = "[A-Za-z0-9._:-]{1,128}";
const AGENT_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) (debug|info|warn|error) (.*)$/;
// vLLM's logging format, optionally behind the process label newer releases put first.
const VLLM_LINE =
  /^(?:\(\w+(?: pid=\d+)?\) )?(DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[[^\]]*\] (.*)$/;
// vLLM names a request by the header's id behind the endpoint's prefix; a completion adds the
// prompt's index (`cmpl-<id>-0`).
const VLLM_REQUEST = new RegExp(
  `\\b(?:Received|Added|Finished|Aborted) request (?:(chatcmpl|cmpl|embd)-)?(${REQUEST_ID_CHARS}?)(?=[:.,]?(?:\\s|$))`,
);
// llama.cpp's common log with --log-prefix: an optional elapsed-time stamp, then one letter.
const LLAMA_LINE = /^(?:\d+\.\d+\.\d+\.\d+ )?([DIWE]) (.*)$/;
const NAMED_REQUEST = new RegExp(`\\brequest[_-]?id["']?\\s*[=:]\\s*"?(${REQUEST_ID_CHARS})`, "i");

const LEVELS: Readonly<Record<string, LogLevel>> = {
  trace: "debug",
  debug: "debug",
  d: "debug",
  info: "info",
  i: "info",
  notice: "info",
  warn: "warn",
  warning: "warn",
  w: "warn",
  error: "error",
  e: "error",
  err: "error",
  critical: "error",
  fatal: "error",
};

const levelOf = (text: unknown): LogLevel =>
  (typeof text === "string" ? LEVELS[text.toLowerCase()] : undefined) ?? "info";

/** A time as JSON loggers write it: ISO text, epoch milliseconds, or epoch seconds (Python). */
function timeOf(value: unknown, fallbackMs: number): number {
  if (typeof value === "number" && Number.isFinite(value))
    return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  if (typeof value === "string") {
    const parsed = Date.parse(value);
    if (!Number.isNaN(parsed)) return parsed;
  }
  return fallbackMs;
}

function firstString(object: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = object[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function fromJson(line: string, source: string, receivedAtMs: number): LogRecord | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  const object = parsed as Record<string, unknown>;
  const message = firstString(object, ["msg", "message", "event"]) ?? line;
  const named = firstString(object, ["request_id", "requestId", "x_request_id", "req_id"]);
  return withRequest(
    {
      timeMs: timeOf(object.time ?? object.timestamp ?? object.ts, receivedAtMs),
      source,
      level: levelOf(object.level ?? object.levelname ?? object.severity),
      message,
    },
    named !== undefined && new RegExp(`^${REQUEST_ID_CHARS}$`).test(named)
      ? named
      : requestNamedIn(message),
  );
}

/** The request id a line of text names, in vLLM's words or as `request_id=…`. */
export function requestNamedIn(text: string): string | undefined {
  const vllm = VLLM_REQUEST.exec(text);
  if (vllm?.[2]) return vllm[1] === "cmpl" ? vllm[2].replace(/-\d+$/, "") : vllm[2];
  return NAMED_REQUEST.exec(text)?.[1];
}

function withRequest(record: LogRecord, requestId: string | undefined): LogRecord {
  return requestId === undefined ? record : { ...record, requestId };
}

/** One line of the agent's log or of an engine's output as a record. */
export function toLogRecord(line: string, source: string, receivedAtMs: number): LogRecord {
  if (line.startsWith("{")) {
    const record = fromJson(line, source, receivedAtMs);
    if (record !== null) return record;
  }
  const agent = AGENT_LINE.exec(line);
  if (agent?.[1] && agent[3] !== undefined)
    return withRequest(
      { timeMs: Date.parse(agent[1]), source, level: levelOf(agent[2]), message: agent[3] },
      requestNamedIn(agent[3]),
    );
  // vLLM's stamp has no year and llama.cpp's counts from its start: the agent's reading time is
  // closer to the truth than either.
  const vllm = VLLM_LINE.exec(line) ?? LLAMA_LINE.exec(line);
  if (vllm?.[2] !== undefined)
    return withRequest(
      { timeMs: receivedAtMs, source, level: levelOf(vllm[1]), message: vllm[2] },
      requestNamedIn(vllm[2]),
    );
  return withRequest(
    { timeMs: receivedAtMs, source, level: "info", message: line },
    requestNamedIn(line),
  );
}

/** A record as the JSON line the agent serves (snake_case, as the wire's field names are). */
export function recordJsonLine(record: LogRecord): string {
  return JSON.stringify({
    time_ms: record.timeMs,
    source: record.source,
    level: record.level,
    message: record.message,
    ...(record.requestId !== undefined && { request_id: record.requestId }),
  });
}
