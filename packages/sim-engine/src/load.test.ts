import { describe, expect, it } from "vitest";
import { EngineLoad } from "./load";

describe("EngineLoad", () => {
  it("queues beyond max sequences and hands the slot to the next in line", async () => {
    const load = new EngineLoad(1, 100);
    const first = await load.admit(10, new AbortController().signal);
    const second = load.admit(20, new AbortController().signal);
    expect([load.running, load.waiting, load.kvCacheUsageRatio]).toEqual([1, 1, 0.1]);
    first.addGeneratedTokens(5);
    first.release("stop");
    const slot = await second;
    expect([load.running, load.waiting, load.kvTokensUsed]).toEqual([1, 0, 20]);
    slot.release("abort");
    slot.release("abort");
    expect([load.running, load.kvTokensUsed, load.generationTokensTotal]).toEqual([0, 0, 5]);
    expect([...load.finished]).toEqual([["stop", 1]]);
  });

  it("drops a waiter whose client left", async () => {
    const load = new EngineLoad(1, 100);
    await load.admit(1, new AbortController().signal);
    const leaving = new AbortController();
    const waiting = load.admit(1, leaving.signal);
    leaving.abort();
    await expect(waiting).rejects.toThrow(/client left/);
    expect(load.waiting).toBe(0);
  });
});
