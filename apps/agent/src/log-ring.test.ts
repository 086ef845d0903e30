import { must } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import { createLogger, formatLogLine, LOG_RING_LINES, LogRing } from "./log-ring";

describe("LogRing", () => {
  it("keeps the newest 2000 lines, oldest first", () => {
    const ring = new LogRing();
    for (let i = 0; i < 2500; i++) ring.push(`line ${i}`);
    const lines = ring.snapshot();
    expect(LOG_RING_LINES).toBe(2000);
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe("line 500");
    expect(lines.at(-1)).toBe("line 2499");
    expect(ring.snapshot(3)).toEqual(["line 2497", "line 2498", "line 2499"]);
  });

  it("returns what it has before it is full", () => {
    const ring = new LogRing(3);
    ring.push("a");
    ring.push("b");
    expect(ring.snapshot()).toEqual(["a", "b"]);
    ring.push("c");
    ring.push("d");
    expect(ring.snapshot()).toEqual(["b", "c", "d"]);
  });
});

describe("logger", () => {
  it("writes one compact line per event to the sink and the ring", () => {
    const ring = new LogRing();
    const written: string[] = [];
    const logger = createLogger({
      ring,
      write: (line) => written.push(line),
      nowMs: () => Date.UTC(2026, 0, 2, 3, 4, 5, 678),
    });
    logger.warn("disconnected", {
      server: "ws://h:8081",
      reason: "going away",
      code: 1001,
      skipped: undefined,
    });
    expect(written).toEqual([
      '2026-01-02T03:04:05.678Z warn disconnected server=ws://h:8081 reason="going away" code=1001\n',
    ]);
    expect(ring.snapshot()).toEqual([must(written[0], "the written line").trimEnd()]);
  });

  it("quotes empty values and values with quotes or equals signs", () => {
    expect(formatLogLine(0, "info", "x", { a: "", b: 'say "hi"', c: "k=v" })).toBe(
      '1970-01-01T00:00:00.000Z info x a="" b="say \\"hi\\"" c="k=v"',
    );
  });
});
