import { describe, expect, it } from "vitest";
import { waitFor } from "./wait-for.ts";

describe("waitFor", () => {
  it("returns the first truthy value", async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : undefined), {
      what: "three calls",
      intervalMs: 1,
    });
    expect(value).toEqual({ calls: 3 });
  });

  it("treats a thrown error as not yet", async () => {
    let calls = 0;
    const value = await waitFor(
      async () => {
        calls += 1;
        if (calls < 2) throw new Error("connection refused");
        return "up";
      },
      { what: "the server", intervalMs: 1 },
    );
    expect(value).toBe("up");
  });

  it("names what it waited for and the last error on timeout", async () => {
    const waiting = waitFor(
      () => {
        throw new Error("ECONNREFUSED 127.0.0.1:1");
      },
      { what: "server /ready", timeoutMs: 100, intervalMs: 10 },
    );
    await expect(waiting).rejects.toThrow(
      /timed out after 100 ms waiting for server \/ready; last error: ECONNREFUSED 127\.0\.0\.1:1/,
    );
  });

  it("names the last value on timeout", async () => {
    const waiting = waitFor(() => ({ phase: "starting" }).phase === "ready", {
      what: "replica ready",
      timeoutMs: 50,
      intervalMs: 5,
    });
    await expect(waiting).rejects.toThrow(/waiting for replica ready; last value: false/);
  });

  it("does not wait past the deadline for a call that hangs", async () => {
    const startedMs = Date.now();
    const waiting = waitFor(() => new Promise<boolean>(() => {}), {
      what: "a hung call",
      timeoutMs: 100,
    });
    await expect(waiting).rejects.toThrow(/waiting for a hung call; fn never completed/);
    expect(Date.now() - startedMs).toBeLessThan(2_000);
  });
});
