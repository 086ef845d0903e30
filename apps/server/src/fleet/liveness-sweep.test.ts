import { create } from "@bufbuild/protobuf";
import { DEFAULT_LIVENESS } from "@llmgw/domain";
import { RegisterSchema } from "@llmgw/proto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startLivenessSweep } from "./liveness-sweep";
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
});
