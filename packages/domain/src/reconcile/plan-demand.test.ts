import { describe, expect, it } from "vitest";
import { parseModelDefinition } from "../catalog/model-definition";
import { desiredReplicas } from "./plan-model";
import { planReconcile } from "./plan";
import { input, liveNode, model, replica } from "./test-fixtures";

function externalModel() {
  const parsed = parseModelDefinition({
    name: "qwen-7b",
    external: { url: "https://api.example.com/v1", model: "qwen", api_key_file: "/k" },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return { definition: parsed.model, revision: 2 };
}

describe("external models in reconciliation", () => {
  it("are never placed, whatever room the fleet has", () => {
    const { actions } = planReconcile(
      input({ models: [externalModel()], nodes: [liveNode("n1")] }),
    );
    expect(actions).toEqual([]);
    expect(desiredReplicas(externalModel(), 0)).toBe(0);
  });

  it("stop the replicas a local definition of the same name had left", () => {
    const { actions } = planReconcile(
      input({ models: [externalModel()], nodes: [liveNode("n1")], replicas: [replica("a")] }),
    );
    expect(actions).toEqual([
      {
        kind: "stop",
        model: "qwen-7b",
        replicaId: "a",
        nodeId: "n1",
        reason: "the model is now served by an external provider",
      },
    ]);
  });
});

describe("on-demand models in reconciliation", () => {
  const onDemand = (demandedAtMs: number | null) => ({
    ...model({ on_demand: true, replicas: { min: 0, max: 2 } }),
    demandedAtMs,
  });

  it("place nothing until a request asks for them", () => {
    const { actions } = planReconcile(input({ models: [onDemand(null)], nodes: [liveNode("n1")] }));
    expect(actions).toEqual([]);
  });

  it("place one replica when a request has just asked", () => {
    const { actions } = planReconcile(
      input({ models: [onDemand(99_000)], nodes: [liveNode("n1")], nowMs: 100_000 }),
    );
    expect(actions.filter((a) => a.kind === "place")).toHaveLength(1);
  });

  it("let the replica go once nothing has asked for the idle window", () => {
    const { actions } = planReconcile(
      input({
        models: [onDemand(0)],
        nodes: [liveNode("n1")],
        replicas: [replica("a")],
        nowMs: 10 * 60_000 + 1,
      }),
    );
    expect(actions.map((a) => a.kind)).toEqual(["stop"]);
    expect(desiredReplicas(onDemand(0), 60_000, 120_000)).toBe(1);
    expect(desiredReplicas(onDemand(0), 120_000, 120_000)).toBe(0);
  });

  it("do not ask more of a model that is not on demand", () => {
    expect(
      desiredReplicas({ ...model({ replicas: { min: 0, max: 2 } }), demandedAtMs: 1 }, 2),
    ).toBe(0);
  });
});

describe("replicas autoscaling added", () => {
  const grown = (added: number, min = 1) => ({
    ...model({ replicas: { min, max: 3 } }),
    autoscaleAdded: added,
  });

  it("are wanted on top of the base, never above max, and not at all with a base of 0", () => {
    expect(desiredReplicas(grown(1), 0)).toBe(2);
    expect(desiredReplicas(grown(5), 0)).toBe(3);
    expect(desiredReplicas(grown(2, 0), 0)).toBe(0);
  });

  it("are placed, and one fewer wanted stops the newest surplus replica", () => {
    const nodes = [liveNode("n1")];
    const placed = planReconcile(input({ models: [grown(1)], nodes, replicas: [replica("a")] }));
    expect(placed.actions.map((a) => a.kind)).toEqual(["place"]);
    const replicas = [replica("a"), replica("b", { createdAtMs: 5 })];
    const shrunk = planReconcile(input({ models: [grown(0)], nodes, replicas }));
    expect(shrunk.actions).toMatchObject([{ kind: "stop", replicaId: "b" }]);
  });
});
