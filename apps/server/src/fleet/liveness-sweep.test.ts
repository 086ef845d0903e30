import { create } from "@bufbuild/protobuf";
import { DEFAULT_LIVENESS } from "@llmgw/domain";
import { RegisterSchema } from "@llmgw/proto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startLivenessSweep, TRANSITION_LINES_MAX } from "./liveness-sweep";
import { FleetRegistry } from "./registry";

const T0 = 100_000;

describe("startLivenessSweep", () => {
  beforeEach(() => vi.useFakeTimers({ now: T0 }));
  afterEach(() => vi.useRealTimers());

  it("writes the connected nodes' last-seen times as one batch per round, not one call a node", () => {
    const registry = new FleetRegistry();
    for (const [i, name] of ["a", "b", "c"].entries())
      registry.connect(create(RegisterSchema, { nodeId: name, nodeName: name }), i, T0);
    registry.disconnect("c", 2, T0);
    const batches: Array<Array<{ nodeId: string; at: number }>> = [];
    const sweep = startLivenessSweep({
      registry,
      policy: DEFAULT_LIVENESS,
      nowMs: () => Date.now(),
      log: () => {},
      saveLastSeen: (seen) => {
        batches.push(seen.map(({ nodeId, at }) => ({ nodeId, at: at.getTime() })));
        return Promise.resolve();
      },
    });
    vi.advanceTimersByTime(1_000);
    registry.touch("a", 0, T0 + 1_500);
    vi.advanceTimersByTime(15_000);
    sweep.stop();
    // The first round writes at once; the next only after 15 s. The closed session is not written.
    expect(batches).toEqual([
      [
        { nodeId: "a", at: T0 },
        { nodeId: "b", at: T0 },
      ],
      [
        { nodeId: "a", at: T0 + 1_500 },
        { nodeId: "b", at: T0 },
      ],
    ]);
  });

  it("logs at most TRANSITION_LINES_MAX transitions a round and counts the rest in one line", () => {
    const registry = new FleetRegistry();
    const count = 500;
    for (let i = 0; i < count; i++)
      registry.connect(create(RegisterSchema, { nodeId: `n${i}`, nodeName: `n${i}` }), i, T0);
    const lines: string[] = [];
    const sweep = startLivenessSweep({
      registry,
      policy: DEFAULT_LIVENESS,
      nowMs: () => Date.now(),
      log: (line) => lines.push(line),
      saveLastSeen: () => Promise.resolve(),
    });
    vi.advanceTimersByTime(1_000);
    // Every node drops at once (a reconnect storm): one round sees all of them go.
    for (let i = 0; i < count; i++) registry.disconnect(`n${i}`, i, Date.now());
    lines.length = 0;
    vi.advanceTimersByTime(1_000);
    sweep.stop();
    expect(lines).toHaveLength(TRANSITION_LINES_MAX + 1);
    expect(lines[0]).toMatch(/^node n0 is /);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^${count - TRANSITION_LINES_MAX} more nodes changed state in this round \\(`),
    );
  });
});
