import { describe, expect, it } from "vitest";
import type { ScopeQuota } from "../quota/types";
import { planReconcile } from "./plan";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { DesiredModel, ReconcileAction } from "./types";

const owned = (chain: string[], overrides: Parameters<typeof model>[0] = {}): DesiredModel => ({
  ...model(overrides),
  ownerChain: chain,
});

const limited = (scope: string, limit: ScopeQuota["limit"]): ScopeQuota => ({
  scope,
  guarantee: { gpus: {} },
  limit,
});

const placed = (actions: ReconcileAction[]) =>
  actions.flatMap((a) => (a.kind === "place" ? [a.model] : []));
const refusals = (actions: ReconcileAction[]) =>
  actions.flatMap((a) => (a.kind === "unplaceable" ? [a.summary] : []));

describe("quota limits in planning", () => {
  it("refuses a replica that would take its owner past a limit, saying who, what and how much", () => {
    const models = [owned(["org:acme", "team:ml"], { replicas: { min: 3, max: 3 } })];
    const { actions } = planReconcile(
      input({
        models,
        nodes: [liveNode("n1")],
        replicas: [replica("a", { gpuIndexes: [0] })],
        quotas: [limited("team:ml", { gpus: { "H100-80G": 2 } })],
      }),
    );
    expect(placed(actions)).toEqual(["qwen-7b"]);
    expect(refusals(actions)).toEqual([
      'model "qwen-7b" profile "h100": team:ml would hold 3 of its limit of 2 H100-80G cards',
    ]);
  });

  it("counts what earlier models of the pass placed, and a limit above the owner", () => {
    const models = [
      owned(["org:acme", "team:ml"], { name: "a-model" }),
      owned(["org:acme", "team:web"], { name: "b-model" }),
    ];
    const { actions } = planReconcile(
      input({
        models,
        nodes: [liveNode("n1")],
        quotas: [limited("org:acme", { gpus: { "H100-80G": 1 } })],
      }),
    );
    expect(placed(actions)).toEqual(["a-model"]);
    expect(refusals(actions)).toEqual([
      'model "b-model" profile "h100": org:acme would hold 2 of its limit of 1 H100-80G cards',
    ]);
  });

  it("names cores and memory in their own units", () => {
    const profiles = [{ name: "cpu", engine: "llamacpp" as const, cpu_cores: 8, memory_gb: 64 }];
    const refused = (limit: ScopeQuota["limit"]) =>
      refusals(
        planReconcile(
          input({
            models: [owned(["team:ml"], { profiles })],
            nodes: [liveNode("n1", { cards: [] })],
            quotas: [limited("team:ml", limit)],
          }),
        ).actions,
      );
    expect(refused({ gpus: {}, cores: 4 })).toEqual([
      'model "qwen-7b" profile "cpu": team:ml would hold 8 of its limit of 4 cores',
    ]);
    expect(refused({ gpus: {}, memoryGb: 32 })).toEqual([
      'model "qwen-7b" profile "cpu": team:ml would hold 64 GiB of its limit of 32 GiB of memory',
    ]);
    expect(refused({ gpus: { "H100-80G": 0 }, cores: 8, memoryGb: 64 })).toEqual([]);
  });

  it("falls back to a later profile when the first would pass the limit", () => {
    const profiles = [
      { name: "h100", engine: "vllm" as const, gpu: "H100-80G", gpus: 1 },
      { name: "cpu", engine: "llamacpp" as const, cpu_cores: 4 },
    ];
    const { actions } = planReconcile(
      input({
        models: [owned(["team:ml"], { profiles })],
        nodes: [liveNode("n1")],
        quotas: [limited("team:ml", { gpus: { "H100-80G": 0 } })],
      }),
    );
    const place = actions.find((a) => a.kind === "place");
    expect(place?.kind === "place" && place.profile).toBe("cpu");
  });

  it("rebuilds a replica of a lost node at the limit: what the pass stops no longer counts", () => {
    const { actions } = planReconcile(
      input({
        models: [owned(["team:ml"])],
        nodes: [liveNode("n1", {}, 0), liveNode("n2")],
        replicas: [replica("a", { nodeId: "n1" })],
        quotas: [limited("team:ml", { gpus: { "H100-80G": 1 } })],
        nowMs: 100_000,
      }),
    );
    expect(actions.map((a) => a.kind)).toEqual(["node-lost", "stop", "place"]);
  });

  it("retires an outdated replica when the limit leaves no room for the new definition", () => {
    const quotas = [limited("team:ml", { gpus: { "H100-80G": 1 } })];
    const models = [{ ...owned(["team:ml"], { replicas: { min: 1, max: 2 } }), revision: 2 }];
    const nodes = [liveNode("n1")];
    const first = planReconcile(
      input({ models, nodes, quotas, replicas: [replica("old", { modelRevision: 1 })] }),
    );
    expect(first.actions).toEqual([
      {
        kind: "stop",
        model: "qwen-7b",
        replicaId: "old",
        nodeId: "n1",
        reason: "making room within the owner's quota limit for the model's new definition",
      },
    ]);
    const stopped = [replica("old", { modelRevision: 1, phase: "stopped" })];
    const next = planReconcile(input({ models, nodes, quotas, replicas: stopped }));
    expect(placed(next.actions)).toEqual(["qwen-7b"]);
  });

  it("lets a model without an owner ignore every quota", () => {
    const { actions } = planReconcile(
      input({
        models: [model({ replicas: { min: 2, max: 2 } })],
        nodes: [liveNode("n1")],
        quotas: [limited("team:ml", { gpus: { "H100-80G": 0 } })],
      }),
    );
    expect(placed(actions)).toEqual(["qwen-7b", "qwen-7b"]);
  });
});
