import { describe, expect, it } from "vitest";
import { readRecords } from "./log-records";

describe("readRecords", () => {
  it("reads the agent's JSON lines into records, request id only where one is named", () => {
    expect(
      readRecords([
        '{"time_ms":1,"source":"r-1","level":"info","message":"Received request chatcmpl-q","request_id":"q"}',
        '{"time_ms":2,"source":"agent","level":"warn","message":"slow"}',
      ]),
    ).toEqual([
      {
        timeMs: 1,
        source: "r-1",
        level: "info",
        message: "Received request chatcmpl-q",
        requestId: "q",
      },
      { timeMs: 2, source: "agent", level: "warn", message: "slow" },
    ]);
  });

  it("leaves out what a broken or hostile agent sends instead of passing it on", () => {
    expect(
      readRecords([
        "not json",
        "[1,2]",
        '{"time_ms":"soon","source":"agent","level":"info","message":"m"}',
        '{"time_ms":1,"source":"agent","level":"panic","message":"m"}',
        `{"time_ms":1,"source":"agent","level":"info","message":"m","request_id":"${"x".repeat(200)}"}`,
      ]),
    ).toEqual([]);
  });
});
