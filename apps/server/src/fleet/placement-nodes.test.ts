import { describe, expect, it } from "vitest";
import { DEFAULT_LIVENESS } from "@llmgw/domain";
import { create, RegisterSchema } from "@llmgw/proto";
import { FleetRegistry } from "./registry";
import { reconcileNodes } from "./placement-nodes";

const GRACE = { restartGraceMs: 30_000, lostAfterMs: 1_000 };

function registryWith(nodes: Array<{ id: string; connectedAtMs: number; leftAtMs?: number }>) {
  const registry = new FleetRegistry();
  nodes.forEach(({ id, connectedAtMs, leftAtMs }, sessionId) => {
    registry.connect(
      create(RegisterSchema, { nodeId: id, nodeName: id }),
      sessionId,
      connectedAtMs,
    );
    if (leftAtMs !== undefined) registry.disconnect(id, sessionId, leftAtMs);
  });
  return registry;
}

const sinceOf = (registry: FleetRegistry, nowMs: number, startedAtMs: number) =>
  new Map(
    reconcileNodes(registry, [], nowMs, DEFAULT_LIVENESS, startedAtMs, GRACE).map((n) => [
      n.node.id,
      n.unreachableSinceMs,
    ]),
  );

describe("reconcileNodes after a takeover", () => {
  it("gives a node that left before this term the restart grace, counted from the takeover", () => {
    // The node left this control plane at 10 s, when another one took the lead; this one leads
    // again from 100 s. Its agent is on its way back: it is not lost at 101 s.
    const since = sinceOf(
      registryWith([{ id: "a", connectedAtMs: 0, leftAtMs: 10_000 }]),
      101_000,
      100_000,
    );
    expect(since.get("a")).toBe(100_000 + GRACE.restartGraceMs - GRACE.lostAfterMs);
  });

  it("counts a node that left during this term from the moment it left", () => {
    const since = sinceOf(
      registryWith([{ id: "b", connectedAtMs: 100_500, leftAtMs: 105_000 }]),
      107_000,
      100_000,
    );
    expect(since.get("b")).toBe(105_000);
  });

  it("counts a connected node as reachable and a node never seen as the grace says", () => {
    const registry = registryWith([{ id: "c", connectedAtMs: 100_500 }]);
    const nodes = reconcileNodes(registry, ["c", "d"], 101_000, DEFAULT_LIVENESS, 100_000, GRACE);
    expect(nodes.map((n) => [n.node.id, n.node.isReachable, n.unreachableSinceMs])).toEqual([
      ["c", true, null],
      ["d", false, 129_000],
    ]);
  });
});

describe("each card's draw", () => {
  function registryWithCards(gpus: Array<{ name: string; powerLimitWatts?: number }>) {
    const registry = new FleetRegistry();
    const register = create(RegisterSchema, {
      nodeId: "n",
      nodeName: "n",
      hardware: {
        gpus: gpus.map((gpu, index) => ({
          index,
          uuid: `GPU-${index}`,
          memoryBytesTotal: 80_000_000_000n,
          computeCapability: "9.0",
          ...gpu,
        })),
      },
    });
    registry.connect(register, 0, 0);
    return registry;
  }

  it("derives a draw from the card's model when nothing else says it, and names which counted", () => {
    const registry = registryWithCards([
      { name: "NVIDIA H100 PCIe" },
      { name: "NVIDIA H100 PCIe", powerLimitWatts: 400 },
      { name: "Unknown Card" },
    ]);
    const [node] = reconcileNodes(registry, [], 0, DEFAULT_LIVENESS, 0, GRACE);
    expect(node?.node.cards.map((c) => [c.drawWatts, c.drawFrom])).toEqual([
      [350, "derived"],
      [400, "power limit"],
      [undefined, undefined],
    ]);
  });
});
