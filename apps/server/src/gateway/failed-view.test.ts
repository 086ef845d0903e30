import { describe, expect, it } from "vitest";
import type { UsageRecordRow } from "@llmgw/db";
import { failedRequestView, placementOf, replicaIdsOf, type FailedLookups } from "./failed-view";

function usageRow(overrides: Partial<UsageRecordRow> = {}): UsageRecordRow {
  return {
    id: 7,
    keyId: "key-1",
    owner: "team:ml",
    model: "qwen",
    endpoint: "/v1/chat/completions",
    replicaId: "rep-live",
    requestId: "req-1",
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: 42,
    ttftMs: null,
    status: 500,
    errorCode: "replica_error",
    at: new Date("2030-01-01T10:00:00Z"),
    ...overrides,
  };
}

const lookups: FailedLookups = {
  keyPrefixes: new Map([["key-1", "llmgw_ab12"]]),
  liveReplicaNodes: new Map([["rep-live", "node-a"]]),
  placedReplicaNodes: new Map([
    ["rep-gone", { nodeId: "node-a", nodeName: "gpu-a" }],
    ["rep-on-removed", { nodeId: "node-x", nodeName: "gpu-x" }],
  ]),
  nodeNames: new Map([["node-a", "gpu-a"]]),
};

describe("failedRequestView", () => {
  it("names the key by its prefix and the node a live replica runs on", () => {
    expect(failedRequestView(usageRow(), lookups)).toEqual({
      id: 7,
      at: "2030-01-01T10:00:00.000Z",
      model: "qwen",
      endpoint: "/v1/chat/completions",
      status: 500,
      errorCode: "replica_error",
      requestId: "req-1",
      owner: "team:ml",
      keyPrefix: "llmgw_ab12",
      latencyMs: 42,
      replicaId: "rep-live",
      nodeId: "node-a",
      nodeName: "gpu-a",
      isReplicaGone: false,
      noNodeReason: null,
    });
  });

  it("finds a stopped replica's node from its placement and keeps its id", () => {
    expect(failedRequestView(usageRow({ replicaId: "rep-gone" }), lookups)).toMatchObject({
      replicaId: "rep-gone",
      nodeId: "node-a",
      nodeName: "gpu-a",
      isReplicaGone: true,
      noNodeReason: null,
    });
  });

  it("says why there is no node to open, instead of a link", () => {
    const view = (replicaId: string | null) => failedRequestView(usageRow({ replicaId }), lookups);
    expect(view(null)).toMatchObject({ nodeId: null, noNodeReason: "no-replica" });
    expect(view("external:gpt#1")).toMatchObject({ nodeId: null, noNodeReason: "external" });
    expect(view("rep-forgotten")).toMatchObject({
      replicaId: "rep-forgotten",
      nodeId: null,
      isReplicaGone: true,
      noNodeReason: "replica-unknown",
    });
    expect(view("rep-on-removed")).toMatchObject({
      nodeId: "node-x",
      nodeName: "gpu-x",
      noNodeReason: "node-removed",
    });
  });

  it("leaves the prefix out for a key that no longer exists", () => {
    const view = failedRequestView(usageRow({ keyId: "key-deleted" }), lookups);
    expect(view.keyPrefix).toBeNull();
    expect(JSON.stringify(view)).not.toContain("key-deleted");
  });
});

describe("replicaIdsOf", () => {
  it("lists each replica once and leaves out external endpoints and rows without a replica", () => {
    const rows = [
      { replicaId: "a" },
      { replicaId: null },
      { replicaId: "external:gpt#2" },
      { replicaId: "a" },
      { replicaId: "b" },
    ];
    expect(replicaIdsOf(rows)).toEqual(["a", "b"]);
  });
});

describe("placementOf", () => {
  it("reads a placement event's node id and name, and refuses params without a node id", () => {
    expect(placementOf({ model: "m", node: "gpu-a", nodeId: "node-a" })).toEqual({
      nodeId: "node-a",
      nodeName: "gpu-a",
    });
    expect(placementOf({ nodeId: "node-a", node: 3 })).toEqual({
      nodeId: "node-a",
      nodeName: null,
    });
    expect(placementOf({ node: "gpu-a" })).toBeNull();
    expect(placementOf({ nodeId: "" })).toBeNull();
  });
});
