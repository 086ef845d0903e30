import type { ModelView, ReplicaView } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { isSortKey as isNodeSortKey } from "./nodes";
import { isModelSortKey, isReplicaSortKey, matchesModelFilter, sortModelsBy } from "./table-order";
import { sortReplicasBy } from "@llmgw/api/schemas";

function model(overrides: Partial<ModelView>): ModelView {
  return {
    ...{ name: "m", definition: {}, revision: 1, state: "ready", replicasDesired: 1 },
    ...{ replicasReady: 1, replicasTotal: 1, consecutiveFailures: 0, isParked: false },
    ...{ lastError: null, unplaceableReasons: [], fallbacks: [], owner: null, externalKey: null },
    ...{ updatedAt: "2030-01-01T00:00:00.000Z", updatedBy: "admin" },
    ...overrides,
  };
}

function replica(overrides: Partial<ReplicaView>): ReplicaView {
  return {
    ...{ id: "r", model: "m", profile: "p", nodeId: "n", nodeName: "n", gpuIndexes: [0] },
    ...{ engine: "vllm", phase: "ready", message: "", endpoint: null, lastUsedAt: null },
    ...{ phaseChangedAt: "2030-01-01T00:00:00.000Z", fetchProgress: null, shards: [] },
    ...overrides,
  };
}

describe("the models table's order and filter", () => {
  const models = [
    model({ name: "b", replicasReady: 2, owner: "team-x" }),
    model({ name: "a", replicasReady: 0, state: "parked" }),
    model({ name: "c", replicasReady: 2, definition: { profiles: [{ engine: "llamacpp" }] } }),
  ];

  it("sorts by a column either way, ties by name", () => {
    const names = (key: "ready" | "name", direction: "asc" | "desc") =>
      sortModelsBy(models, { key, direction }).map((m) => m.name);
    expect(names("ready", "asc")).toEqual(["a", "b", "c"]);
    expect(names("ready", "desc")).toEqual(["b", "c", "a"]);
    expect(names("name", "desc")).toEqual(["c", "b", "a"]);
  });

  it("keeps the models whose name, state, owner or engines hold every word", () => {
    const kept = (filter: string) =>
      models.filter((m) => matchesModelFilter(m, filter)).map((m) => m.name);
    expect(kept("")).toEqual(["b", "a", "c"]);
    expect(kept("PARKED")).toEqual(["a"]);
    expect(kept("team-x")).toEqual(["b"]);
    expect(kept("llamacpp c")).toEqual(["c"]);
    expect(kept("nothing-like-it")).toEqual([]);
  });
});

describe("the replicas table's order", () => {
  it("sorts by last use, never used last going up, ties by model, node and id", () => {
    const ids = sortReplicasBy(
      [
        replica({ id: "1", lastUsedAt: "2030-01-02T00:00:00.000Z" }),
        replica({ id: "2" }),
        replica({ id: "3", lastUsedAt: "2030-01-01T00:00:00.000Z" }),
        replica({ id: "0" }),
      ],
      { key: "lastUsed", direction: "desc" },
    ).map((r) => r.id);
    expect(ids).toEqual(["1", "3", "0", "2"]);
  });
});

describe("sort keys read back from the desk", () => {
  it("are only the tables' own columns, never an object's inherited names", () => {
    expect(isModelSortKey("ready")).toBe(true);
    expect(isReplicaSortKey("phaseChanged")).toBe(true);
    for (const bad of ["toString", "constructor", "__proto__", 3, null])
      expect([isModelSortKey(bad), isReplicaSortKey(bad), isNodeSortKey(bad)]).toEqual([
        false,
        false,
        false,
      ]);
  });
});
