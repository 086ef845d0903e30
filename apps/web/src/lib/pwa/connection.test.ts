import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { INITIAL_CONNECTION, nextConnectionState } from "./connection";

function trpcError(code: string) {
  return new TRPCClientError("failed", {
    result: { error: { message: "failed", code: -1, data: { code } } },
  });
}

describe("control plane connection", () => {
  it("turns unreachable when the relay cannot reach the control plane, keeping the last data's time", () => {
    const answered = nextConnectionState(INITIAL_CONNECTION, { kind: "success", at: 1000 });
    const lost = nextConnectionState(answered, { kind: "error", error: trpcError("BAD_GATEWAY") });
    expect(lost).toEqual({ reachable: false, lastDataAt: 1000 });
  });

  it("counts a failed fetch (the console itself gone) as unreachable", () => {
    const lost = nextConnectionState(INITIAL_CONNECTION, {
      kind: "error",
      error: new TypeError("Failed to fetch"),
    });
    expect(lost.reachable).toBe(false);
  });

  it("counts a refusal as an answer: the control plane is there", () => {
    const lost = nextConnectionState(INITIAL_CONNECTION, {
      kind: "error",
      error: trpcError("BAD_GATEWAY"),
    });
    const refused = nextConnectionState(lost, { kind: "error", error: trpcError("FORBIDDEN") });
    expect(refused.reachable).toBe(true);
  });

  it("recovers on the next answer", () => {
    const lost = nextConnectionState(
      { reachable: true, lastDataAt: 5 },
      { kind: "error", error: trpcError("SERVICE_UNAVAILABLE") },
    );
    expect(nextConnectionState(lost, { kind: "success", at: 9 })).toEqual({
      reachable: true,
      lastDataAt: 9,
    });
  });
});
