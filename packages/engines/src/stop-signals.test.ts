// The listeners behind every llmgw process's stop: the first SIGINT or SIGTERM stops it, repeats
// are only reported, and nothing is left listening once disposed. (That a repeat no longer kills a
// real agent mid-stop is apps/server/test/stop-signals.int.test.ts.)
import { afterEach, describe, expect, it } from "vitest";
import { listenForStopSignals, type StopSignals } from "./stop-signals";

const live: StopSignals[] = [];
afterEach(() => live.splice(0).forEach((s) => s.dispose()));

function listen(onRepeat?: (signal: NodeJS.Signals) => void): StopSignals {
  const signals = listenForStopSignals(onRepeat);
  live.push(signals);
  return signals;
}

describe("listenForStopSignals", () => {
  it("settles with the first signal and reports each later one", async () => {
    const repeats: NodeJS.Signals[] = [];
    const signals = listen((signal) => repeats.push(signal));
    process.emit("SIGTERM", "SIGTERM");
    process.emit("SIGINT", "SIGINT");
    process.emit("SIGTERM", "SIGTERM");
    await expect(signals.received).resolves.toBe("SIGTERM");
    expect(repeats).toEqual(["SIGINT", "SIGTERM"]);
  });

  it("keeps listening after the first signal, so a repeat never meets Node's default action", () => {
    const before = { int: process.listenerCount("SIGINT"), term: process.listenerCount("SIGTERM") };
    const signals = listen();
    process.emit("SIGINT", "SIGINT");
    expect(process.listenerCount("SIGINT")).toBe(before.int + 1);
    expect(process.listenerCount("SIGTERM")).toBe(before.term + 1);
    signals.dispose();
    expect(process.listenerCount("SIGINT")).toBe(before.int);
    expect(process.listenerCount("SIGTERM")).toBe(before.term);
  });
});
