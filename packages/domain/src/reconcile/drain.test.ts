// Holds, cordons and drains in the planner: nothing new on a held node, and a draining node's
// replicas replaced elsewhere first, stopped only once the replacement is ready (surge).
import { describe, expect, it } from "vitest";
import { nodeHoldState } from "../facility/holds";
import { planReconcile } from "./plan";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { ReconcileAction } from "./types";

const places = (actions: ReconcileAction[]) => actions.filter((a) => a.kind === "place");
const stops = (actions: ReconcileAction[]) => actions.filter((a) => a.kind === "stop");
const rack = (value: string) => ({ "llmgw.io/rack": value });

describe("holds and cordons", () => {
  const hold = { kind: "rack" as const, value: "r12", isDraining: false, heldBy: "ada" };

  it("turns a cordon and a domain hold into the sentences placement shows", () => {
    expect(nodeHoldState("n1", rack("r12"), null, [hold])).toEqual({
      hold: "is in rack r12, held by ada (llmgw ctl facility release rack=r12)",
    });
    expect(nodeHoldState("n1", rack("r1"), null, [hold])).toEqual({});
    expect(nodeHoldState("n1", {}, "draining", [])).toEqual({
      hold: "is draining (llmgw ctl node uncordon n1 lets replicas back)",
      drain: "node n1 is draining",
    });
    expect(nodeHoldState("n1", rack("r12"), null, [{ ...hold, isDraining: true }]).drain).toBe(
      "rack r12 is draining",
    );
  });

  it("places nothing on a held node, and says which hold when nothing else fits", () => {
    const held = nodeHoldState("n1", rack("r12"), null, [hold]);
    const { actions } = planReconcile(
      input({ models: [model()], nodes: [liveNode("n1", { labels: rack("r12"), ...held })] }),
    );
    expect(places(actions)).toEqual([]);
    const refused = actions.find((a) => a.kind === "unplaceable");
    expect(refused?.kind === "unplaceable" && refused.reasons[0]).toBe(
      "n1 (profile h100): is in rack r12, held by ada (llmgw ctl facility release rack=r12)",
    );
  });
});

describe("drain with surge", () => {
  const draining = nodeHoldState("n1", {}, "draining", []);
  const nodes = [liveNode("n1", draining), liveNode("n2")];
  const definition = model({ replicas: { min: 1, max: 1 } });

  it("places the replacement elsewhere first and keeps the old one serving, even at max", () => {
    const { actions } = planReconcile(
      input({ models: [definition], nodes, replicas: [replica("old", { nodeId: "n1" })] }),
    );
    expect(stops(actions)).toEqual([]);
    expect(places(actions).map((p) => p.shards[0]?.nodeId)).toEqual(["n2"]);
  });

  it("keeps the old one while its replacement starts, and stops it once that is ready", () => {
    const old = replica("old", { nodeId: "n1" });
    const starting = replica("new", { nodeId: "n2", phase: "starting", createdAtMs: 1 });
    const waiting = planReconcile(
      input({ models: [definition], nodes, replicas: [old, starting] }),
    );
    expect(waiting.actions).toEqual([]);
    const ready = { ...starting, phase: "ready" as const };
    const done = planReconcile(input({ models: [definition], nodes, replicas: [old, ready] }));
    expect(stops(done.actions)).toEqual([
      expect.objectContaining({
        replicaId: "old",
        reason: "moved off: node n1 is draining; its replacement is ready",
      }),
    ]);
    expect(places(done.actions)).toEqual([]);
  });

  it("leaves the old replica serving when nowhere else fits, and says why", () => {
    const full = [liveNode("n1", draining), liveNode("n2", { cards: [] })];
    const { actions } = planReconcile(
      input({ models: [definition], nodes: full, replicas: [replica("old", { nodeId: "n1" })] }),
    );
    expect(stops(actions)).toEqual([]);
    const refused = actions.find((a) => a.kind === "unplaceable");
    expect(refused?.kind === "unplaceable" && refused.reasons).toEqual(
      expect.arrayContaining([expect.stringMatching(/^n1 \(profile h100\): is draining/)]),
    );
  });
});
