import { describe, expect, it } from "vitest";
import { StormTrace, type ThreadWatch } from "./storm-trace";

function setup() {
  const gate = { queued: 0, handshaking: 0 };
  const lines: string[] = [];
  const ticks: Array<() => void> = [];
  let running = 0;
  const held = { delayMaxMs: 340, gcPauses: 3, gcMs: 41.4, gcMaxMs: 30.2 };
  const thread: ThreadWatch = {
    start: () => (running += 1),
    read: () => held,
    stop: () => (running = Math.max(0, running - 1)),
  };
  const clock = { ms: 0 };
  const trace = new StormTrace({
    gate,
    nowMs: () => clock.ms,
    log: (line) => lines.push(line),
    thread,
    every: (tick) => {
      ticks.push(tick);
      return { stop: () => ticks.splice(ticks.indexOf(tick), 1) };
    },
  });
  const second = () => ticks.forEach((tick) => tick());
  return { gate, lines, ticks, trace, second, clock, isWatching: () => running > 0 };
}

describe("StormTrace", () => {
  it("stays quiet, with no timer and no thread watch, while nothing waits at the gate", () => {
    const { gate, lines, ticks, trace, isWatching } = setup();
    gate.handshaking = 3;
    trace.accepted();
    trace.started(0);
    trace.secured();
    expect(ticks).toHaveLength(0);
    expect(isWatching()).toBe(false);
    expect(lines).toEqual([]);
  });

  it("logs each second of a storm with the server's counts, then stops once the queue drained", () => {
    const { gate, lines, ticks, trace, second, isWatching } = setup();
    // Second 1: 100 connections arrive, the first 64 start at once, 36 wait.
    for (let at = 0; at < 100; at += 1) {
      if (at < 64) {
        gate.handshaking += 1;
        trace.started(0);
      } else gate.queued += 1;
      trace.accepted();
    }
    for (let at = 0; at < 40; at += 1) trace.secured();
    gate.handshaking = 60;
    gate.queued = 0;
    expect(isWatching()).toBe(true);
    for (let at = 0; at < 36; at += 1) trace.started(at * 50);
    second();
    expect(lines).toEqual([
      "agent port: storm second 1: 100 connections accepted, 100 handshakes started (longest wait 1750 ms), 40 secured; 60 in flight and 0 waiting (most 36); thread held up to 340 ms, GC 3 pauses 41 ms (longest 30 ms)",
    ]);
    // Second 2 began with nothing waiting and nothing queued in it: the last line, then quiet.
    gate.handshaking = 0;
    for (let at = 0; at < 60; at += 1) trace.secured();
    second();
    expect(lines[1]).toMatch(
      /^agent port: storm second 2: 0 connections accepted, 0 handshakes started \(longest wait 0 ms\), 60 secured; 0 in flight and 0 waiting \(most 0\)/,
    );
    expect(ticks).toHaveLength(0);
    expect(isWatching()).toBe(false);
    second();
    expect(lines).toHaveLength(2);
  });

  it("keeps logging while connections still wait at a second's end, and starts afresh for the next storm", () => {
    const { gate, lines, ticks, trace, second, clock } = setup();
    gate.queued = 5;
    trace.accepted();
    second();
    second();
    expect(lines.map((line) => line.slice(0, 34))).toEqual([
      "agent port: storm second 1: 1 conn",
      "agent port: storm second 2: 0 conn",
    ]);
    expect(lines[1]).toContain("0 in flight and 5 waiting (most 5)");
    gate.queued = 0;
    second();
    second();
    expect(ticks).toHaveLength(0);
    expect(lines).toHaveLength(4);
    // The next storm, a minute later: what was counted between storms is not in its first second.
    gate.handshaking = 1;
    trace.accepted();
    trace.started(0);
    clock.ms += 60_000;
    gate.queued = 1;
    trace.accepted();
    second();
    expect(lines[4]).toMatch(/^agent port: storm second 1: 1 connections accepted, 0 handshakes/);
  });
});
