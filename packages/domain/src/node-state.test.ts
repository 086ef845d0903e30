import { describe, expect, it } from "vitest";
import { nodeLiveness, unreachableAfterMs } from "./node-state";

const policy = { heartbeatIntervalMs: 2_000, missedHeartbeatsMax: 3 };

describe("nodeLiveness", () => {
  it("stays ready until three heartbeats have been missed", () => {
    const lastSeenMs = 10_000;
    expect(nodeLiveness({ isConnected: true, lastSeenMs }, 15_999, policy)).toBe("ready");
    expect(nodeLiveness({ isConnected: true, lastSeenMs }, 16_000, policy)).toBe("ready");
    expect(nodeLiveness({ isConnected: true, lastSeenMs }, 16_001, policy)).toBe("unreachable");
  });

  it("is unreachable at once when the session is gone", () => {
    expect(nodeLiveness({ isConnected: false, lastSeenMs: 10_000 }, 10_001, policy)).toBe(
      "unreachable",
    );
  });

  it("honours a configured number of missed heartbeats", () => {
    expect(unreachableAfterMs(0, { heartbeatIntervalMs: 500, missedHeartbeatsMax: 5 })).toBe(2_500);
  });
});
