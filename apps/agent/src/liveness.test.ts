import { describe, expect, it } from "vitest";
import type { Timers } from "./connection-options";
import { DEFAULT_IDLE_MS, DEFAULT_PING_TIMEOUT_MS, watchLiveness } from "./liveness";

/** Timers driven by hand: advance(ms) fires what falls due, in order. */
function fakeTimers() {
  let nowMs = 0;
  let nextId = 1;
  const pending = new Map<number, { atMs: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout: (callback, delayMs) => {
      const id = nextId++;
      pending.set(id, { atMs: nowMs + delayMs, callback });
      return id;
    },
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  const advance = (byMs: number) => {
    const untilMs = nowMs + byMs;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, timer]) => timer.atMs <= untilMs)
        .sort((a, b) => a[1].atMs - b[1].atMs)[0];
      if (due === undefined) break;
      pending.delete(due[0]);
      nowMs = due[1].atMs;
      due[1].callback();
    }
    nowMs = untilMs;
  };
  return { timers, advance, pending };
}

function watch() {
  const clock = fakeTimers();
  const events: string[] = [];
  const liveness = watchLiveness({
    timers: clock.timers,
    idleMs: DEFAULT_IDLE_MS,
    pingTimeoutMs: DEFAULT_PING_TIMEOUT_MS,
    ping: () => events.push("ping"),
    dead: (silentMs) => events.push(`dead after ${silentMs}`),
  });
  return { clock, events, liveness };
}

describe("watchLiveness", () => {
  it("pings after 5 s of silence and calls the peer dead 3 s later", () => {
    const { clock, events } = watch();
    clock.advance(4999);
    expect(events).toEqual([]);
    clock.advance(1);
    expect(events).toEqual(["ping"]);
    clock.advance(2999);
    expect(events).toEqual(["ping"]);
    clock.advance(1);
    expect(events).toEqual(["ping", "dead after 8000"]);
  });

  it("any frame, the pong included, starts the silence again", () => {
    const { clock, events, liveness } = watch();
    for (let i = 0; i < 10; i++) {
      clock.advance(4000);
      liveness.heard();
    }
    expect(events).toEqual([]);
    clock.advance(5000);
    clock.advance(2000);
    liveness.heard(); // the pong
    clock.advance(4999);
    expect(events).toEqual(["ping"]);
    clock.advance(1 + 3000);
    expect(events).toEqual(["ping", "ping", "dead after 8000"]);
  });

  it("does nothing once stopped, whatever arrives afterwards", () => {
    const { clock, events, liveness } = watch();
    liveness.stop();
    liveness.heard();
    clock.advance(60_000);
    expect(events).toEqual([]);
    expect(clock.pending.size).toBe(0);
  });
});
