// The server's own stalls are excused from its nodes' silence, and only those: a node that really
// went quiet while the server ran on is still unreachable, and later lost.
import { afterEach, describe, expect, it } from "vitest";
import { create, RegisterSchema } from "@llmgw/proto";
import { DEFAULT_LIVENESS, nodeLiveness } from "@llmgw/domain";
import { reconcileNodes } from "./placement-nodes";
import { FleetRegistry } from "./registry";
import { Registry } from "prom-client";
import { registerStallMetrics, startStallWatch, type StallWatch } from "./stall-watch";

let clockMs = 0;
let watch: StallWatch | undefined;
afterEach(() => watch?.stop());

/** A registry whose watch reads `clockMs`; `runFor` moves the clock as a running server's ticks would. */
function fleetWithWatch() {
  clockMs = 1_000_000;
  watch = startStallWatch(() => clockMs);
  const registry = new FleetRegistry(watch);
  const runFor = (ms: number) => {
    for (let step = 0; step < ms; step += 100) {
      clockMs += 100;
      watch?.attend();
    }
  };
  return { registry, runFor };
}

function join(registry: FleetRegistry, nodeId: string) {
  return registry.connect(create(RegisterSchema, { nodeId, nodeName: nodeId }), 1, clockMs);
}

describe("stall watch", () => {
  it("excuses a stall of the server: its nodes stay ready and are not lost", () => {
    const { registry, runFor } = fleetWithWatch();
    const live = join(registry, "a");
    runFor(1_000);
    // 30 s in which nothing of the server ran (a synchronous task, a starved process).
    clockMs += 30_000;
    const heard = registry.heard(live);
    expect(nodeLiveness(heard, clockMs, DEFAULT_LIVENESS)).toBe("ready");
    const [node] = reconcileNodes(registry, [], clockMs, DEFAULT_LIVENESS, 0);
    expect(node?.node.isReachable).toBe(true);
    expect(node?.unreachableSinceMs).toBeNull();
    // Its first frame after the stall counts from then on.
    registry.touch("a", 1, clockMs);
    expect(registry.heard(live).lastSeenMs).toBe(clockMs);
  });

  it("does not excuse a node that went quiet while the server ran", () => {
    const { registry, runFor } = fleetWithWatch();
    const live = join(registry, "quiet");
    runFor(30_000);
    expect(registry.heard(live).lastSeenMs).toBe(live.lastSeenMs);
    expect(nodeLiveness(registry.heard(live), clockMs, DEFAULT_LIVENESS)).toBe("unreachable");
    const [node] = reconcileNodes(registry, [], clockMs, DEFAULT_LIVENESS, 0);
    expect(node?.node.isReachable).toBe(false);
  });

  it("excuses only the stall after a node was last heard, less the tolerance", () => {
    const { registry, runFor } = fleetWithWatch();
    const early = join(registry, "early");
    clockMs += 10_000;
    watch?.attend();
    // Heard after the first stall: only the second one is excused for it.
    const late = join(registry, "late");
    runFor(1_000);
    clockMs += 5_000;
    expect(registry.heard(late).lastSeenMs).toBe(late.lastSeenMs + 4_500);
    expect(registry.heard(early).lastSeenMs).toBe(early.lastSeenMs + 9_500 + 4_500);
  });

  it("excuses nothing without a watch, so fixed-clock tests judge by the frames alone", () => {
    const registry = new FleetRegistry();
    const live = registry.connect(create(RegisterSchema, { nodeId: "n", nodeName: "n" }), 1, 0);
    expect(registry.heard(live)).toEqual({ isConnected: true, lastSeenMs: 0 });
  });

  it("exports the excused time, so an operator sees liveness judged late", async () => {
    const { runFor } = fleetWithWatch();
    const metrics = new Registry();
    if (watch) registerStallMetrics(metrics, watch);
    const stalled = async () =>
      (await metrics.getSingleMetric("llmgw_server_stalled_seconds_total")?.get())?.values[0]
        ?.value;
    runFor(2_000);
    expect(await stalled()).toBe(0);
    clockMs += 30_000;
    expect(await stalled()).toBe(29.5);
    runFor(1_000);
    clockMs += 2_000;
    expect(await stalled()).toBe(31);
  });
});
