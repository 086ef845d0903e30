import { failureBackoffMs } from "./failure-backoff";
import { describe, expect, it } from "vitest";
import { planReconcile } from "./plan";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { ReconcileAction } from "./types";

const kinds = (actions: ReconcileAction[]) => actions.map((a) => a.kind);
const stops = (actions: ReconcileAction[]) =>
  actions.filter((a) => a.kind === "stop").map((a) => a.replicaId);

describe("planReconcile", () => {
  it("places a model's minimum on free cards", () => {
    const { actions } = planReconcile(
      input({ models: [model({ replicas: { min: 2, max: 3 } })], nodes: [liveNode("n1")] }),
    );
    const places = actions.filter((a) => a.kind === "place");
    expect(places).toHaveLength(2);
    expect(places.map((p) => p.shards[0]?.cardIndexes)).toEqual([[0], [1]]);
  });

  it("places a judge model's replica on a judge node first, when the model prefers that role", () => {
    const nodes = [liveNode("n1"), liveNode("judge-1", { labels: { "llmgw.role": "judge" } })];
    const placedOn = (preferredRole?: string) => {
      const desired = { ...model(), preferredRole };
      const { actions } = planReconcile(input({ models: [desired], nodes }));
      const place = actions.find((a) => a.kind === "place");
      return place?.kind === "place" ? place.shards[0]?.nodeId : undefined;
    };
    expect(placedOn("judge")).toBe("judge-1");
    expect(placedOn()).toBe("n1");
  });

  it("does nothing when the count is met", () => {
    const plan = planReconcile(
      input({ models: [model()], nodes: [liveNode("n1")], replicas: [replica("a")] }),
    );
    expect(plan.actions).toEqual([]);
  });

  it("says why a model cannot be placed", () => {
    const { actions } = planReconcile(
      input({ models: [model()], nodes: [liveNode("n1", { cards: [] })] }),
    );
    const unplaceable = actions.find((a) => a.kind === "unplaceable");
    expect(unplaceable?.kind === "unplaceable" && unplaceable.reasons[0]).toMatch(
      /^n1 \(profile h100\): /,
    );
  });

  it("keeps replicas of an unreachable node until it is lost, then rebuilds them", () => {
    const nodes = [liveNode("n1", {}, 95_000), liveNode("n2")];
    const early = planReconcile(
      input({ models: [model()], nodes, replicas: [replica("a")], nowMs: 100_000 }),
    );
    expect(early.actions).toEqual([]);
    const late = planReconcile(
      input({ models: [model()], nodes, replicas: [replica("a")], nowMs: 105_001 }),
    );
    expect(kinds(late.actions)).toEqual(["node-lost", "stop", "place"]);
    const place = late.actions.find((a) => a.kind === "place");
    expect(place?.kind === "place" && place.shards[0]?.nodeId).toBe("n2");
  });

  it("stops the surplus when a lost node returns, keeping the ready replica", () => {
    const replicas = [
      replica("old", { nodeId: "n1", createdAtMs: 1 }),
      replica("new", { nodeId: "n2", phase: "starting", createdAtMs: 2 }),
    ];
    const { actions } = planReconcile(
      input({ models: [model()], nodes: [liveNode("n1"), liveNode("n2")], replicas }),
    );
    expect(stops(actions)).toEqual(["new"]);
  });

  it("never goes above max", () => {
    const replicas = ["a", "b", "c"].map((id, i) => replica(id, { gpuIndexes: [i] }));
    const { actions } = planReconcile(
      input({
        models: [model({ replicas: { min: 1, max: 2 } })],
        nodes: [liveNode("n1")],
        replicas,
      }),
    );
    expect(stops(actions)).toHaveLength(2);
  });

  it("counts a failed start and retires the replica, and places another only after the backoff", () => {
    const failedAt = 100_000;
    const { actions } = planReconcile(
      input({
        models: [model()],
        nodes: [liveNode("n1")],
        nowMs: failedAt,
        replicas: [replica("a", { phase: "failed", message: "exit 1" })],
      }),
    );
    expect(kinds(actions)).toEqual(["count-failure", "stop"]);
    const waitMs = failureBackoffMs("qwen-7b", 1);
    const health = [
      {
        name: "qwen-7b",
        consecutiveFailures: 1,
        isParked: false,
        lastError: "exit 1",
        revision: 1,
      },
    ];
    const at = (nowMs: number) =>
      kinds(
        planReconcile(input({ models: [model()], nodes: [liveNode("n1")], health, nowMs })).actions,
      );
    const withFailure = (nowMs: number) =>
      kinds(
        planReconcile(
          input({
            models: [model()],
            nodes: [liveNode("n1")],
            health: [{ ...health[0], lastFailureAtMs: failedAt } as (typeof health)[0]],
            nowMs,
          }),
        ).actions,
      );
    expect(withFailure(failedAt + waitMs - 1)).toEqual([]);
    expect(withFailure(failedAt + waitMs)).toEqual(["place"]);
    // A failure whose moment is unknown (a store from before the backoff) holds nothing back.
    expect(at(failedAt)).toEqual(["place"]);
  });

  it("parks after five failures in a row and places nothing more", () => {
    const health = [
      { name: "qwen-7b", consecutiveFailures: 4, isParked: false, lastError: "x", revision: 1 },
    ];
    const { actions } = planReconcile(
      input({
        models: [model()],
        health,
        nodes: [liveNode("n1")],
        replicas: [replica("a", { phase: "failed", message: "never ready" })],
      }),
    );
    expect(kinds(actions)).toEqual(["count-failure", "stop", "park"]);
    expect(actions.find((a) => a.kind === "park")).toMatchObject({ lastError: "never ready" });
  });

  it("unparks on a new definition revision", () => {
    const health = [
      { name: "qwen-7b", consecutiveFailures: 5, isParked: true, lastError: "x", revision: 1 },
    ];
    const { actions } = planReconcile(
      input({ models: [model({}, 2)], health, nodes: [liveNode("n1")] }),
    );
    expect(kinds(actions)).toEqual(["reset-failures", "place"]);
  });

  it("resets failures once a replica is ready", () => {
    const health = [
      { name: "qwen-7b", consecutiveFailures: 2, isParked: false, lastError: "x", revision: 1 },
    ];
    const { actions } = planReconcile(
      input({ models: [model()], health, nodes: [liveNode("n1")], replicas: [replica("a")] }),
    );
    expect(actions).toEqual([
      { kind: "reset-failures", model: "qwen-7b", revision: 1, why: "ready" },
    ]);
  });

  it("stops every replica of a removed model", () => {
    const { actions } = planReconcile(
      input({
        nodes: [liveNode("n1")],
        replicas: [replica("a"), replica("b", { gpuIndexes: [1] })],
      }),
    );
    expect(stops(actions)).toEqual(["a", "b"]);
  });

  it("keeps old replicas serving until the new definition is ready", () => {
    const nodes = [liveNode("n1")];
    const m = model({ replicas: { min: 1, max: 2 } }, 2);
    const first = planReconcile(input({ models: [m], nodes, replicas: [replica("old")] }));
    expect(kinds(first.actions)).toEqual(["place"]);
    const replicas = [replica("old"), replica("new", { modelRevision: 2, gpuIndexes: [1] })];
    expect(stops(planReconcile(input({ models: [m], nodes, replicas })).actions)).toEqual(["old"]);
  });

  it("plans only the models it is asked about", () => {
    const a = model({ name: "a" });
    const b = model({ name: "b" });
    const { actions } = planReconcile(
      input({ models: [a, b], nodes: [liveNode("n1")], only: ["b"] }),
    );
    expect(actions.map((x) => (x.kind === "node-lost" ? x.nodeId : x.model))).toEqual(["b"]);
  });
});
