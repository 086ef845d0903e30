import { describe, expect, it } from "vitest";
import { planReconcile } from "./plan";
import { asWhole, combinedPhase, shardsOf } from "./shards";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { ObservedShard, ReconcileAction, ReplicaPhaseName } from "./types";

const twoNodes = () =>
  model({
    profiles: [{ name: "h100x2", engine: "vllm", gpu: "H100-80G", gpus: 4, nodes: 2 }],
    replicas: { min: 1, max: 1 },
  });

function shard(rank: number, nodeId: string, phase: ReplicaPhaseName, message = ""): ObservedShard {
  return { rank, nodeId, gpuIndexes: [0, 1, 2, 3], phase, message };
}

function spanning(leader: ReplicaPhaseName, worker: ReplicaPhaseName, message = "") {
  return replica("big", {
    profile: "h100x2",
    nodeId: "n1",
    gpuIndexes: [0, 1, 2, 3],
    phase: leader,
    shards: [shard(0, "n1", leader), shard(1, "n2", worker, message)],
  });
}

const stops = (actions: ReconcileAction[]) =>
  actions.filter((a) => a.kind === "stop").map((a) => a.replicaId);

describe("combinedPhase", () => {
  it("is ready only when every shard is", () => {
    expect(combinedPhase([{ phase: "ready" }, { phase: "starting" }])).toBe("starting");
    expect(combinedPhase([{ phase: "ready" }, { phase: "ready" }])).toBe("ready");
  });

  it("stands where the slowest shard stands", () => {
    expect(combinedPhase([{ phase: "starting" }, { phase: "placing" }])).toBe("placing");
    expect(combinedPhase([{ phase: "fetching" }, { phase: "ready" }])).toBe("fetching");
  });

  it("fails as a whole when one shard fails, and stops when one stopped on its own", () => {
    expect(combinedPhase([{ phase: "ready" }, { phase: "failed" }])).toBe("failed");
    expect(combinedPhase([{ phase: "stopped" }, { phase: "ready" }])).toBe("stopped");
  });
});

describe("a replica spanning nodes in planning", () => {
  it("reads a replica on one node as one leader shard", () => {
    expect(shardsOf(replica("a"))).toEqual([
      { rank: 0, nodeId: "n1", gpuIndexes: [0], phase: "ready", message: "" },
    ]);
  });

  it("names the failed shard's rank and node in the replica's message", () => {
    const whole = asWhole(spanning("ready", "failed", "NCCL timeout"));
    expect(whole.phase).toBe("failed");
    expect(whole.message).toBe("shard rank 1 on node n2 failed: NCCL timeout");
  });

  it("says the leader's own reason when the leader shard failed", () => {
    const leaderFailed = replica("big", {
      profile: "h100x2",
      phase: "failed",
      shards: [shard(0, "n1", "failed", "engine exited with code 1"), shard(1, "n2", "ready")],
    });
    expect(asWhole(leaderFailed).message).toBe("engine exited with code 1");
  });

  it("places one shard per node for a profile with nodes: 2", () => {
    const { actions } = planReconcile(
      input({ models: [twoNodes()], nodes: [liveNode("n1"), liveNode("n2")] }),
    );
    const place = actions.find((a) => a.kind === "place");
    expect(place?.kind === "place" && place.shards.map((s) => s.nodeId).sort()).toEqual([
      "n1",
      "n2",
    ]);
  });

  it("counts the cards of every shard, so a worker's cards are not given away", () => {
    const other = model({
      name: "small",
      profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 4 }],
      replicas: { min: 2, max: 2 },
    });
    const { actions } = planReconcile(
      input({
        models: [twoNodes(), other],
        nodes: [liveNode("n1", { cards: cardsOf(4) }), liveNode("n2", { cards: cardsOf(8) })],
        replicas: [spanning("ready", "ready")],
      }),
    );
    // n1 is full and n2 has four free cards: one replica of "small" fits, not two.
    const places = actions.filter((a) => a.kind === "place");
    expect(places.map((p) => p.kind === "place" && p.shards[0]?.nodeId)).toEqual(["n2"]);
    expect(places.map((p) => p.kind === "place" && p.shards[0]?.cardIndexes)).toEqual([
      [4, 5, 6, 7],
    ]);
    expect(actions.some((a) => a.kind === "unplaceable")).toBe(true);
  });

  it("is not counted as ready while a worker starts: nothing is reset, the count is met", () => {
    const { actions } = planReconcile(
      input({
        models: [twoNodes()],
        nodes: [liveNode("n1"), liveNode("n2")],
        replicas: [spanning("ready", "starting")],
        health: [
          {
            name: "qwen-7b",
            consecutiveFailures: 1,
            isParked: false,
            lastError: "x",
            revision: 1,
          },
        ],
      }),
    );
    expect(actions.map((a) => a.kind)).toEqual([]);
  });

  it("fails as a whole when a worker shard fails: counted and stopped, replaced after the backoff", () => {
    const { actions } = planReconcile(
      input({
        models: [twoNodes()],
        nodes: [liveNode("n1"), liveNode("n2"), liveNode("n3")],
        replicas: [spanning("ready", "failed", "worker exited")],
      }),
    );
    const failure = actions.find((a) => a.kind === "count-failure");
    expect(failure?.kind === "count-failure" && failure.error).toMatch(/rank 1 on node n2/);
    expect(stops(actions)).toEqual(["big"]);
    expect(actions.some((a) => a.kind === "place")).toBe(false);
  });

  it("gives up the whole replica when a worker's node is lost, and rebuilds it", () => {
    const nodes = [liveNode("n1"), liveNode("n2", {}, 80_000), liveNode("n3")];
    const { actions } = planReconcile(
      input({ models: [twoNodes()], nodes, replicas: [spanning("ready", "ready")] }),
    );
    expect(actions.map((a) => a.kind)).toEqual(["node-lost", "stop", "place"]);
    const stop = actions.find((a) => a.kind === "stop");
    expect(stop?.kind === "stop" && stop.nodeId).toBe("n2");
    const place = actions.find((a) => a.kind === "place");
    expect(place?.kind === "place" && place.shards.map((s) => s.nodeId).sort()).toEqual([
      "n1",
      "n3",
    ]);
  });

  it("waits with nothing placed when no two nodes are left", () => {
    const nodes = [liveNode("n1"), liveNode("n2", {}, 80_000)];
    const { actions } = planReconcile(
      input({ models: [twoNodes()], nodes, replicas: [spanning("ready", "ready")] }),
    );
    expect(actions.map((a) => a.kind)).toEqual(["node-lost", "stop", "unplaceable"]);
  });
});

function cardsOf(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    index,
    gpuClass: "H100-80G",
    memoryGb: 80,
    computeCapability: 9.0,
    isHealthy: true,
  }));
}
