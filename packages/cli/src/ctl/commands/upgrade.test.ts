// The driver of `ctl upgrade` against a fake control plane and a fake clock: the order, the skip
// of nodes already on the version, and the stop before the next node with the reason.
import type { UpgradePlan, UpgradePlanNode } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { runUpgrade, type UpgradeDeps } from "./upgrade";
import {
  controlPlaneProgress,
  elapsedText,
  nodeProgress,
  nodesToUpgrade,
  waitForProgress,
  type Clock,
} from "./upgrade-steps";

function node(name: string, agentVersion: string, readyReplicas = 1): UpgradePlanNode {
  return {
    id: `id-${name}`,
    name,
    agentVersion,
    isConnected: true,
    isReady: true,
    readyReplicas,
    canUpgrade: true,
  };
}

function fakeClock(): Clock & { slept: number } {
  let nowMs = 0;
  const clock = {
    slept: 0,
    nowMs: () => nowMs,
    sleep: (ms: number) => {
      nowMs += ms;
      clock.slept += 1;
      return Promise.resolve();
    },
  };
  return clock;
}

describe("the upgrade's decisions", () => {
  it("takes nodes in name order and skips those already on the version", () => {
    const nodes = [node("gpu-b", "1.0.0"), node("gpu-a", "1.0.0"), node("gpu-c", "1.1.0")];
    expect(nodesToUpgrade(nodes, "1.1.0").map((n) => n.name)).toEqual(["gpu-a", "gpu-b"]);
  });

  it("calls a node done only back on the version, ready, with as many ready replicas", () => {
    const before = node("gpu-a", "1.0.0", 3);
    expect(nodeProgress("1.1.0", before, undefined)).toEqual({
      isDone: false,
      why: "did not reconnect",
    });
    expect(nodeProgress("1.1.0", before, { ...before, isConnected: false })).toMatchObject({
      why: "did not reconnect",
    });
    expect(nodeProgress("1.1.0", before, before)).toMatchObject({
      why: "came back on version 1.0.0",
    });
    const back = { ...before, agentVersion: "1.1.0" };
    expect(nodeProgress("1.1.0", before, { ...back, isReady: false })).toMatchObject({
      why: "is connected but not ready",
    });
    expect(nodeProgress("1.1.0", before, { ...back, readyReplicas: 2 })).toMatchObject({
      why: "2 of 3 replicas ready",
    });
    expect(nodeProgress("1.1.0", before, { ...back, readyReplicas: 3 })).toEqual({ isDone: true });
  });

  it("calls the control plane back once it reports the version and its ready nodes reconnected", () => {
    const ready = [node("gpu-a", "1.0.0"), node("gpu-b", "1.0.0")];
    const plan = (nodes: UpgradePlanNode[]): UpgradePlan => ({
      serverVersion: "1.1.0",
      serverRefusal: null,
      releases: [],
      nodes,
    });
    expect(controlPlaneProgress("1.1.0", null, ready, null)).toMatchObject({
      why: "did not answer again",
    });
    expect(controlPlaneProgress("1.1.0", "1.0.0", ready, plan(ready))).toMatchObject({
      why: "came back on version 1.0.0",
    });
    const oneMissing = plan([
      ready[0] as UpgradePlanNode,
      { ...(ready[1] as UpgradePlanNode), isConnected: false },
    ]);
    expect(controlPlaneProgress("1.1.0", "1.1.0", ready, oneMissing)).toMatchObject({
      why: "gpu-b did not reconnect ready",
    });
    expect(controlPlaneProgress("1.1.0", "1.1.0", ready, plan(ready))).toEqual({ isDone: true });
  });

  it("waits until the deadline and answers the last reason, counting a failed check as not yet", async () => {
    const clock = fakeClock();
    const progress = await waitForProgress(
      () => Promise.reject(new Error("connection refused")),
      clock,
      10_000,
      1_000,
    );
    expect(progress).toEqual({ isDone: false, why: "connection refused" });
    expect(clock.nowMs()).toBe(10_000);
    expect(elapsedText(65_000)).toBe("1m 05s");
    expect(elapsedText(42_000)).toBe("42s");
  });
});

/** A control plane on 1.0.0 with three nodes; `behave` says what each node does when told. */
function fakeFleet(behave: Record<string, "upgrades" | "never-returns" | "refuses">) {
  const state = {
    serverVersion: "1.0.0",
    nodes: [node("gpu-c", "1.0.0", 2), node("gpu-a", "1.1.0"), node("gpu-b", "1.0.0", 2)],
  };
  const calls: string[] = [];
  const plan = (): UpgradePlan => ({
    serverVersion: state.serverVersion,
    serverRefusal: null,
    releases: [{ version: "1.1.0", file: "f", sha256: "s", bytes: 1, added: "" }],
    nodes: state.nodes.map((n) => ({ ...n })),
  });
  const api = {
    upgrade: {
      plan: { query: () => Promise.resolve(plan()) },
      controlPlane: {
        mutate: ({ version }: { version: string }) => {
          calls.push(`controlPlane ${version}`);
          state.serverVersion = version;
          return Promise.resolve({ from: "1.0.0", version, isRestarting: true });
        },
      },
      node: {
        mutate: ({ nodeId, version }: { nodeId: string; version: string }) => {
          calls.push(`node ${nodeId}`);
          const target = state.nodes.find((n) => n.id === nodeId);
          const how = behave[target?.name ?? ""] ?? "upgrades";
          if (how === "refuses")
            return Promise.reject(
              new Error(`node "${target?.name}" did not upgrade to ${version}: SHA-256 mismatch`),
            );
          if (target && how === "upgrades") target.agentVersion = version;
          if (target && how === "never-returns") target.isConnected = false;
          return Promise.resolve({
            nodeId,
            name: nodeId,
            from: "1.0.0",
            version,
            isRestarting: true,
          });
        },
      },
    },
  } as unknown as UpgradeDeps["api"];
  const lines: string[] = [];
  const deps: UpgradeDeps = {
    api,
    healthVersion: () => Promise.resolve(state.serverVersion),
    clock: fakeClock(),
    line: (text) => void lines.push(text),
  };
  return { deps, calls, lines, state };
}

describe("runUpgrade", () => {
  it("upgrades the control plane, then each node not yet on the version, in name order", async () => {
    const { deps, calls, lines } = fakeFleet({});
    const steps = await runUpgrade(deps, "1.1.0", 60_000);
    expect(calls).toEqual(["controlPlane 1.1.0", "node id-gpu-b", "node id-gpu-c"]);
    expect(steps.map((s) => [s.step, s.ok])).toEqual([
      ["control plane", true],
      ["gpu-b", true],
      ["gpu-c", true],
    ]);
    expect(lines[1]).toBe(
      "gpu-b: 1.0.0 → 1.1.0: done, on 1.1.0, ready, 2 replicas ready as before (0s)",
    );
  });

  it("stops before the next node when one does not come back, naming it and why", async () => {
    const { deps, calls, lines } = fakeFleet({ "gpu-b": "never-returns" });
    const steps = await runUpgrade(deps, "1.1.0", 120_000);
    expect(calls).toEqual(["controlPlane 1.1.0", "node id-gpu-b"]);
    expect(steps.at(-1)).toMatchObject({
      step: "gpu-b",
      ok: false,
      detail: "did not reconnect within 2m 00s",
    });
    expect(lines.at(-1)).toBe("gpu-b: 1.0.0 → 1.1.0: STOPPED, did not reconnect within 2m 00s");
  });

  it("stops with the agent's own reason when it refuses", async () => {
    const { deps, calls } = fakeFleet({ "gpu-b": "refuses" });
    const steps = await runUpgrade(deps, "1.1.0", 60_000);
    expect(calls).not.toContain("node id-gpu-c");
    expect(steps.at(-1)?.detail).toMatch(/did not upgrade to 1.1.0: SHA-256 mismatch/);
  });

  it("resumes: a second run skips the control plane and the nodes already done", async () => {
    const behave: Record<string, "upgrades" | "never-returns"> = { "gpu-c": "never-returns" };
    const { deps, calls, state } = fakeFleet(behave);
    expect((await runUpgrade(deps, "1.1.0", 5_000)).at(-1)).toMatchObject({
      step: "gpu-c",
      ok: false,
    });
    // The operator brings gpu-c back on its old release and runs the same command again.
    behave["gpu-c"] = "upgrades";
    for (const n of state.nodes) n.isConnected = true;
    calls.length = 0;
    const again = await runUpgrade(deps, "1.1.0", 5_000);
    expect(calls).toEqual(["node id-gpu-c"]);
    expect(again[0]).toMatchObject({ step: "control plane", ok: true, detail: "already on 1.1.0" });
  });

  it("refuses a version that is not stored before touching anything", async () => {
    const { deps, calls } = fakeFleet({});
    const steps = await runUpgrade(deps, "2.0.0", 60_000);
    expect(calls).toEqual([]);
    expect(steps).toEqual([
      expect.objectContaining({
        step: "release",
        ok: false,
        detail: expect.stringMatching(/2.0.0 is not stored/),
      }),
    ]);
  });
});
