import { describe, expect, it } from "vitest";
import { cards } from "../placement/test-fixtures";
import { liveNode, model, replica } from "../reconcile/test-fixtures";
import type { DesiredModel } from "../reconcile/types";
import { quotaUsage } from "./accounting";
import type { ScopeQuota, ScopeUsage } from "./types";

const owned = (chain: string[], overrides: Parameters<typeof model>[0] = {}): DesiredModel => ({
  ...model({
    profiles: [
      { name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 2, cpu_cores: 4, memory_gb: 32 },
    ],
    ...overrides,
  }),
  ownerChain: chain,
});

const mixedNode = liveNode("n1", { cards: [...cards(2, "H100-80G"), ...cards(2, "L40S")] });
// cards() numbers each class from 0; renumber so the node's four cards are 0..3.
const nodes = [
  {
    ...mixedNode,
    node: { ...mixedNode.node, cards: mixedNode.node.cards.map((c, index) => ({ ...c, index })) },
  },
  liveNode("n2"),
];

const line = (usage: ScopeUsage[], scope: string, resource: string) =>
  usage.find((u) => u.scope === scope)?.lines.find((l) => l.resource === resource);

describe("quotaUsage", () => {
  it("sums a model's replicas into its owner and every scope above it", () => {
    const models = [owned(["org:acme", "team:ml", "project:search"])];
    const replicas = [
      replica("a", { profile: "h100", nodeId: "n2", gpuIndexes: [0, 1] }),
      replica("b", { profile: "h100", nodeId: "n2", gpuIndexes: [2, 3], phase: "starting" }),
    ];
    const usage = quotaUsage({ quotas: [], models, replicas, nodes });
    expect(usage.map((u) => u.scope)).toEqual(["org:acme", "project:search", "team:ml"]);
    for (const scope of ["org:acme", "team:ml", "project:search"]) {
      expect(line(usage, scope, "gpus:H100-80G")?.held).toBe(4);
      expect(line(usage, scope, "cores")?.held).toBe(8);
      expect(line(usage, scope, "memory")?.held).toBe(64);
    }
  });

  it("adds the scopes beneath a scope to what it holds itself", () => {
    const models = [
      owned(["org:acme", "team:ml"], { name: "big" }),
      owned(["org:acme", "team:ml", "project:search"], { name: "small" }),
      owned(["org:acme", "team:web"], { name: "web" }),
    ];
    const replicas = [
      replica("a", { model: "big", nodeId: "n2", gpuIndexes: [0, 1] }),
      replica("b", { model: "small", nodeId: "n2", gpuIndexes: [2, 3] }),
      replica("c", { model: "web", nodeId: "n2", gpuIndexes: [4, 5] }),
    ];
    const usage = quotaUsage({ quotas: [], models, replicas, nodes });
    expect(line(usage, "project:search", "gpus:H100-80G")?.held).toBe(2);
    expect(line(usage, "team:ml", "gpus:H100-80G")?.held).toBe(4);
    expect(line(usage, "team:web", "gpus:H100-80G")?.held).toBe(2);
    expect(line(usage, "org:acme", "gpus:H100-80G")?.held).toBe(6);
  });

  it("counts each card under its own class on its node, and every shard of a replica", () => {
    const models = [owned(["team:ml"])];
    const replicas = [
      {
        ...replica("a", { nodeId: "n1", gpuIndexes: [1, 2] }),
        shards: [
          { rank: 0, nodeId: "n1", gpuIndexes: [1, 2], phase: "ready" as const, message: "" },
          { rank: 1, nodeId: "n2", gpuIndexes: [0, 1], phase: "ready" as const, message: "" },
        ],
      },
    ];
    const usage = quotaUsage({ quotas: [], models, replicas, nodes });
    expect(line(usage, "team:ml", "gpus:H100-80G")?.held).toBe(3);
    expect(line(usage, "team:ml", "gpus:L40S")?.held).toBe(1);
    // Cores and memory are held on each of the replica's two nodes.
    expect(line(usage, "team:ml", "cores")?.held).toBe(8);
    expect(line(usage, "team:ml", "memory")?.held).toBe(64);
  });

  it("counts neither stopped nor failed replicas, nor models without an owner", () => {
    const models = [owned(["team:ml"]), { ...owned([], { name: "free" }) }];
    const replicas = [
      replica("a", { nodeId: "n2", gpuIndexes: [0, 1], phase: "stopped" }),
      replica("b", { nodeId: "n2", gpuIndexes: [2, 3], phase: "failed" }),
      replica("c", { model: "free", nodeId: "n2", gpuIndexes: [4, 5] }),
      replica("d", { nodeId: "n2", gpuIndexes: [6, 7], phase: "draining" }),
    ];
    const usage = quotaUsage({ quotas: [], models, replicas, nodes });
    expect(usage.map((u) => u.scope)).toEqual(["team:ml"]);
    expect(line(usage, "team:ml", "gpus:H100-80G")?.held).toBe(2);
  });

  it("reports guaranteed, limit and borrowed for every resource named or held", () => {
    const quotas: ScopeQuota[] = [
      {
        scope: "team:ml",
        guarantee: { gpus: { "H100-80G": 1, L40S: 4 }, cores: 16 },
        limit: { gpus: { "H100-80G": 4 }, memoryGb: 1024 },
      },
      { scope: "team:idle", guarantee: { gpus: { L40S: 2 } }, limit: null },
    ];
    const models = [owned(["team:ml"])];
    const replicas = [replica("a", { nodeId: "n2", gpuIndexes: [0, 1] })];
    const usage = quotaUsage({ quotas, models, replicas, nodes });
    expect(usage.find((u) => u.scope === "team:ml")).toEqual({
      scope: "team:ml",
      atLimit: false,
      lines: [
        { resource: "gpus:H100-80G", held: 2, guaranteed: 1, limit: 4, borrowed: 1 },
        { resource: "gpus:L40S", held: 0, guaranteed: 4, limit: null, borrowed: 0 },
        { resource: "cores", held: 4, guaranteed: 16, limit: null, borrowed: 0 },
        { resource: "memory", held: 32, guaranteed: 0, limit: 1024, borrowed: 32 },
      ],
    });
    expect(usage.find((u) => u.scope === "team:idle")).toEqual({
      scope: "team:idle",
      atLimit: false,
      lines: [{ resource: "gpus:L40S", held: 0, guaranteed: 2, limit: null, borrowed: 0 }],
    });
  });

  it("says a scope is at its limit when a line it holds reaches the limit", () => {
    const models = [owned(["team:ml"])];
    const replicas = [replica("a", { nodeId: "n2", gpuIndexes: [0, 1] })];
    const at = (limit: ScopeQuota["limit"]) =>
      quotaUsage({
        quotas: [{ scope: "team:ml", guarantee: { gpus: {} }, limit }],
        models,
        replicas,
        nodes,
      })[0]?.atLimit;
    expect(at({ gpus: { "H100-80G": 2 } })).toBe(true);
    expect(at({ gpus: { "H100-80G": 3 } })).toBe(false);
    expect(at({ gpus: { "H100-80G": 3, L40S: 0 } })).toBe(false);
    expect(at(null)).toBe(false);
  });
});
