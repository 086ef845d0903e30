import { describe, expect, it } from "vitest";
import { guaranteedReplicas } from "./guarantees";
import { createQuotaPass } from "./quota-pass";
import { input, liveNode, model, replica } from "./test-fixtures";
import type { DesiredModel, ReconcileInput } from "./types";

const owned = (name: string, chain: string[], overrides: Parameters<typeof model>[0] = {}) => ({
  ...model({ name, ...overrides }),
  ownerChain: chain,
});

function covered(models: DesiredModel[], overrides: Partial<ReconcileInput>): string[] {
  const pass = createQuotaPass(
    input({ models, nodes: [liveNode("n1")], ...overrides }),
    new Map(models.map((m) => [m.definition.name, m])),
  );
  if (!pass) throw new Error("no quota pass");
  return [...guaranteedReplicas(pass, overrides.replicas ?? [])].sort();
}

describe("guaranteedReplicas", () => {
  const big = { profiles: [{ name: "h100", engine: "vllm" as const, gpu: "H100-80G", gpus: 2 }] };
  const models = [
    owned("crit", ["team:a"], { priority_class: "critical" }),
    owned("norm", ["team:a"]),
    owned("wide", ["team:a"], big),
  ];
  const quotas = [{ scope: "team:a", guarantee: { gpus: { "H100-80G": 2 } }, limit: null }];

  it("fills a guarantee by priority class, then oldest first", () => {
    const replicas = [
      replica("n-old", { model: "norm", gpuIndexes: [0], createdAtMs: 1 }),
      replica("n-new", { model: "norm", gpuIndexes: [1], createdAtMs: 2 }),
      replica("c-new", { model: "crit", gpuIndexes: [2], createdAtMs: 3 }),
    ];
    expect(covered(models, { replicas, quotas })).toEqual(["c-new", "n-old"]);
  });

  it("skips a replica too large for what is left and fills on with smaller ones", () => {
    const replicas = [
      replica("n-old", { model: "norm", gpuIndexes: [0], createdAtMs: 1 }),
      replica("w", { model: "wide", gpuIndexes: [1, 2], createdAtMs: 2 }),
      replica("n-new", { model: "norm", gpuIndexes: [3], createdAtMs: 3 }),
    ];
    expect(covered(models, { replicas, quotas })).toEqual(["n-new", "n-old"]);
  });

  it("covers only resources the guarantee names: a CPU replica is borrowed under a card guarantee", () => {
    const cpu = owned("cpu", ["team:a"], {
      profiles: [{ name: "cpu", engine: "llamacpp", cpu_cores: 4 }],
    });
    const replicas = [replica("c", { model: "cpu", profile: "cpu", gpuIndexes: [] })];
    expect(covered([cpu], { replicas, quotas })).toEqual([]);
  });
});
