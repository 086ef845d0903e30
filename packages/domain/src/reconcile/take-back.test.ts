import { describe, expect, it } from "vitest";
import { cards } from "../placement/test-fixtures";
import type { ScopeQuota } from "../quota/types";
import { planReconcile } from "./plan";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { DesiredModel, ObservedReplica, ReconcileAction } from "./types";

const owned = (
  name: string,
  chain: string[],
  overrides: Parameters<typeof model>[0] = {},
): DesiredModel => ({
  ...model({ name, replicas: { min: 1, max: 4 }, ...overrides }),
  ownerChain: chain,
});

const guarantee = (scope: string, h100: number): ScopeQuota => ({
  scope,
  guarantee: { gpus: { "H100-80G": h100 } },
  limit: null,
});

const twoCards = liveNode("n1", { cards: cards(2) });
const stopsOf = (actions: ReconcileAction[]) =>
  actions.flatMap((a) => (a.kind === "stop" ? [`${a.replicaId}: ${a.reason}`] : []));
const kinds = (actions: ReconcileAction[]) => actions.map((a) => a.kind);

const borrower = (id: string, overrides: Partial<ObservedReplica> = {}) =>
  replica(id, { model: "b-model", ...overrides });

describe("taking borrowed capacity back", () => {
  const teamB = owned("b-model", ["org:acme", "team:b"], { replicas: { min: 2, max: 2 } });
  const teamA = owned("a-model", ["org:acme", "team:a"]);
  const full = [
    borrower("b1", { gpuIndexes: [0], createdAtMs: 1 }),
    borrower("b2", { gpuIndexes: [1], createdAtMs: 2 }),
  ];

  it("stops the newest borrower for a scope within its guarantee, and places nothing yet", () => {
    const { actions } = planReconcile(
      input({
        models: [teamA, teamB],
        nodes: [twoCards],
        replicas: full,
        quotas: [guarantee("team:a", 1)],
      }),
    );
    expect(kinds(actions)).toEqual(["stop", "unplaceable"]);
    expect(stopsOf(actions)).toEqual([
      "b2: borrowed capacity taken back for team:a (model a-model)",
    ]);
    // The borrower's model, short of a replica now, says why it cannot have it back.
    expect(actions.find((a) => a.kind === "unplaceable")?.model).toBe("b-model");
  });

  it("places the guaranteed model in the next pass, once the borrower has stopped", () => {
    const replicas = [
      full[0] as ObservedReplica,
      borrower("b2", { gpuIndexes: [1], phase: "stopped" }),
    ];
    const { actions } = planReconcile(
      input({
        models: [teamA, teamB],
        nodes: [twoCards],
        replicas,
        quotas: [guarantee("team:a", 1)],
      }),
    );
    const places = actions.flatMap((a) => (a.kind === "place" ? [a.model] : []));
    expect(places).toEqual(["a-model"]);
    expect(stopsOf(actions)).toEqual([]);
    // The borrower cannot come back: the room is the guaranteed model's now.
    expect(actions.find((a) => a.kind === "unplaceable")?.model).toBe("b-model");
  });

  it("never stops a replica within its owner's guarantee", () => {
    const { actions } = planReconcile(
      input({
        models: [teamA, teamB],
        nodes: [twoCards],
        replicas: full,
        quotas: [guarantee("team:a", 1), guarantee("team:b", 2)],
      }),
    );
    expect(stopsOf(actions)).toEqual([]);
    expect(kinds(actions)).toEqual(["unplaceable"]);
  });

  it("counts a guarantee above the owner: the org's guarantee covers its teams' replicas", () => {
    const { actions } = planReconcile(
      input({
        models: [teamA, teamB],
        nodes: [twoCards],
        replicas: full,
        quotas: [guarantee("team:a", 1), guarantee("org:acme", 2)],
      }),
    );
    expect(stopsOf(actions)).toEqual([]);
  });

  it("takes nothing for a scope already at its guarantee", () => {
    const { actions } = planReconcile(
      input({
        models: [owned("a-model", ["team:a"], { replicas: { min: 2, max: 2 } }), teamB],
        nodes: [liveNode("n1", { cards: cards(3) })],
        replicas: [...full, replica("a1", { model: "a-model", gpuIndexes: [2] })],
        quotas: [guarantee("team:a", 1)],
      }),
    );
    expect(stopsOf(actions)).toEqual([]);
    expect(kinds(actions)).toEqual(["unplaceable"]);
  });

  it("takes nothing from its own scope's subtree", () => {
    const project = owned("b-model", ["org:acme", "team:a", "project:x"], {
      replicas: { min: 2, max: 2 },
    });
    const { actions } = planReconcile(
      input({
        models: [teamA, project],
        nodes: [twoCards],
        replicas: full,
        quotas: [guarantee("team:a", 3)],
      }),
    );
    expect(stopsOf(actions)).toEqual([]);
  });

  it("takes the lowest priority class first, then as few replicas as the room needs", () => {
    const models = [
      owned("a-model", ["team:a"], {
        profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 2 }],
      }),
      owned("b-model", ["team:b"], { priority_class: "high", replicas: { min: 1, max: 1 } }),
      owned("c-model", ["team:c"], { priority_class: "low", replicas: { min: 3, max: 3 } }),
      owned("d-model", ["team:d"], {
        priority_class: "low",
        profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 2 }],
        replicas: { min: 1, max: 1 },
      }),
    ];
    const nodes = ["n1", "n2", "n3"].map((id) => liveNode(id, { cards: cards(2) }));
    const replicas = [
      // n1: a high replica and a low one; n2: two low ones; n3: one low replica of both cards.
      replica("b1", { model: "b-model", nodeId: "n1", gpuIndexes: [0] }),
      replica("c1", { model: "c-model", nodeId: "n1", gpuIndexes: [1] }),
      replica("c2", { model: "c-model", nodeId: "n2", gpuIndexes: [0] }),
      replica("x1", { model: "c-model", nodeId: "n2", gpuIndexes: [1], phase: "stopped" }),
      replica("d1", { model: "d-model", nodeId: "n3", gpuIndexes: [0, 1] }),
    ];
    const busy = [
      ...replicas.filter((r) => r.id !== "x1"),
      replica("c3", { model: "c-model", nodeId: "n2", gpuIndexes: [1] }),
    ];
    const { actions } = planReconcile(
      input({ models, nodes, replicas: busy, quotas: [guarantee("team:a", 2)] }),
    );
    expect(stopsOf(actions)).toEqual([
      "d1: borrowed capacity taken back for team:a (model a-model)",
    ]);
  });

  it("takes nothing when the limit would refuse the replica anyway", () => {
    const { actions } = planReconcile(
      input({
        models: [teamA, teamB],
        nodes: [twoCards],
        replicas: full,
        quotas: [{ ...guarantee("team:a", 1), limit: { gpus: { "H100-80G": 0 } } }],
      }),
    );
    expect(stopsOf(actions)).toEqual([]);
  });

  it("leaves replicas of models without an owner alone", () => {
    const { actions } = planReconcile(
      input({
        models: [teamA, { ...teamB, ownerChain: [] }],
        nodes: [twoCards],
        replicas: full,
        quotas: [guarantee("team:a", 1)],
      }),
    );
    expect(stopsOf(actions)).toEqual([]);
  });
});
