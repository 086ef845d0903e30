import { tempDir, type TempDir } from "@llmgw/testing";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LogRing } from "./log-ring";
import { answerLogs, type LogsContext } from "./logs-answer";
import { EngineLogTail } from "./replicas/engine-log";

describe("answerLogs", () => {
  let dir: TempDir;
  let context: LogsContext;
  let tail: EngineLogTail;

  beforeEach(async () => {
    dir = await tempDir("logs-answer");
    const agentRing = new LogRing();
    agentRing.push("2026-12-02T10:00:00.000Z info started node=n1");
    agentRing.push("2026-12-02T10:00:02.000Z warn answer slow request_id=req-1");
    tail = new EngineLogTail(join(dir.path, "engine.log"), () =>
      Date.parse("2026-12-02T10:00:03Z"),
    );
    const line = (time: string, msg: string, id?: string) =>
      JSON.stringify({ time, level: "info", msg, ...(id && { request_id: id }) });
    await appendFile(
      tail.logPath,
      [
        line("2026-12-02T10:00:01.000Z", "Received request chatcmpl-req-1", "req-1"),
        line("2026-12-02T10:00:01.500Z", "Received request chatcmpl-req-2", "req-2"),
        "INFO 12-02 10:00:02 [logger.py:43] Finished request chatcmpl-req-1",
        "plain engine line",
        "",
      ].join("\n"),
    );
    await tail.poll();
    context = {
      agentRing,
      supervisor: {
        statuses: () => [{ replicaId: "r-1" }] as never,
        get: (id: string) => (id === "r-1" ? ({ logTail: tail } as never) : undefined),
      },
      nowMs: () => Date.parse("2026-12-02T10:00:05Z"),
    };
  });
  afterEach(() => dir.remove());

  it("answers an engine's lines with a record for each, as JSON lines", () => {
    const reply = answerLogs({ source: "r-1", lines: 2 }, context);
    expect(reply.lines).toEqual([
      "INFO 12-02 10:00:02 [logger.py:43] Finished request chatcmpl-req-1",
      "plain engine line",
    ]);
    expect(reply.records.map((r) => JSON.parse(r))).toEqual([
      {
        time_ms: Date.parse("2026-12-02T10:00:03Z"),
        source: "r-1",
        level: "info",
        message: "Finished request chatcmpl-req-1",
        request_id: "req-1",
      },
      {
        time_ms: Date.parse("2026-12-02T10:00:03Z"),
        source: "r-1",
        level: "info",
        message: "plain engine line",
      },
    ]);
    expect(reply.linesSearched).toBe(0);
  });

  it("finds one request's lines across every source on the node, in time order", () => {
    const reply = answerLogs(
      { source: "agent", lines: 200, requestId: "req-1", everySource: true },
      context,
    );
    expect(reply.records.map((r) => JSON.parse(r) as { source: string; message: string })).toEqual([
      expect.objectContaining({ source: "r-1", message: "Received request chatcmpl-req-1" }),
      expect.objectContaining({ source: "agent", message: "answer slow request_id=req-1" }),
      expect.objectContaining({ source: "r-1", message: "Finished request chatcmpl-req-1" }),
    ]);
    expect(reply.lines).toHaveLength(3);
    expect(reply.linesSearched).toBe(6);
  });

  it("searches all lines kept, not only the last asked for, and answers none for an unknown id", () => {
    const oneLine = answerLogs({ source: "r-1", lines: 1, requestId: "req-2" }, context);
    expect(oneLine.lines).toEqual([expect.stringContaining("chatcmpl-req-2")]);
    const none = answerLogs({ source: "r-1", lines: 200, requestId: "req-404" }, context);
    expect(none).toMatchObject({ lines: [], records: [], linesSearched: 4 });
  });

  it("refuses a source the node does not have, naming those it has", () => {
    expect(answerLogs({ source: "r-9", lines: 5 }, context).error).toBe(
      'no log source "r-9" on this node; known sources: agent, r-1',
    );
  });
});
