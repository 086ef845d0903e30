// Answers a LogsRequest from the rings this agent keeps: its own log and each engine's output. A
// request id narrows the answer to the lines that name it, searched through every line kept (not
// only the last `lines`), in one source or, with every_source, across the whole node.
import type { LogsRequest } from "@llmgw/proto";
import type { LogRing } from "./log-ring";
import { recordJsonLine, toLogRecord, type LogRecord } from "./log-record";
import type { ReplicaSupervisor } from "./replicas/supervisor";

const DEFAULT_LOG_LINES = 200;
const MAX_LOG_LINES = 2000;
/** Enough for the whole agent ring and every engine ring: a search reads all of them. */
const SEARCH_ALL_LINES = 1_000_000;
const AGENT_LOG_SOURCE = "agent";

export interface LogsContext {
  supervisor: Pick<ReplicaSupervisor, "statuses" | "get">;
  agentRing: LogRing;
  nowMs?: () => number;
}

interface KeptLine {
  text: string;
  record: LogRecord;
}

function linesOf(source: string, count: number, context: LogsContext): KeptLine[] {
  if (source === AGENT_LOG_SOURCE) {
    const nowMs = (context.nowMs ?? Date.now)();
    return context.agentRing
      .snapshot(count)
      .map((text) => ({ text, record: toLogRecord(text, source, nowMs) }));
  }
  const tail = context.supervisor.get(source)?.logTail;
  if (tail === undefined) return [];
  const texts = tail.lastLines(count);
  const records = tail.lastRecords(count, source);
  return records.map((record, index) => ({ text: texts[index] ?? record.message, record }));
}

/** Reads what the engines asked for wrote since the last tick, so the reply is current. */
export async function readEngineLogsNow(
  request: Pick<LogsRequest, "source" | "everySource">,
  supervisor: LogsContext["supervisor"],
): Promise<void> {
  const sources = request.everySource
    ? supervisor.statuses().map((status) => status.replicaId ?? "")
    : [request.source];
  for (const source of sources) await supervisor.get(source)?.logTail?.poll();
}

/** The agent's own ring for "" or "agent", a replica's engine ring for its id. */
export function answerLogs(
  request: Pick<LogsRequest, "source" | "lines"> & Partial<LogsRequest>,
  context: LogsContext,
) {
  const lines = Math.min(request.lines > 0 ? request.lines : DEFAULT_LOG_LINES, MAX_LOG_LINES);
  const replicaIds = context.supervisor.statuses().map((status) => status.replicaId ?? "");
  const sources = [AGENT_LOG_SOURCE, ...replicaIds];
  const source = request.source === "" ? AGENT_LOG_SOURCE : request.source;
  if (!request.everySource && source !== AGENT_LOG_SOURCE && !context.supervisor.get(source)) {
    return {
      source,
      lines: [],
      sources,
      records: [],
      linesSearched: 0,
      error: `no log source "${source}" on this node; known sources: ${sources.join(", ")}`,
    };
  }
  const asked = request.everySource ? sources : [source];
  const requestId = request.requestId ?? "";
  const reach = requestId === "" ? lines : SEARCH_ALL_LINES;
  const kept = asked.flatMap((name) => linesOf(name, reach, context));
  // Sources are read one after another; across several, the answer is put back in time order.
  if (asked.length > 1) kept.sort((a, b) => a.record.timeMs - b.record.timeMs);
  const matching = requestId === "" ? kept : kept.filter((l) => l.record.requestId === requestId);
  const shown = matching.slice(-lines);
  return {
    source,
    lines: shown.map((line) => line.text),
    sources,
    records: shown.map((line) => recordJsonLine(line.record)),
    linesSearched: requestId === "" ? 0 : kept.length,
  };
}
