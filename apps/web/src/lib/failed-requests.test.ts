import { describe, expect, it } from "vitest";
import type { FailedRequest } from "@llmgw/api/schemas";
import { nodeLogsHref, rangeSinceIso } from "./failed-requests";

const failed: FailedRequest = {
  id: 3,
  at: "2030-01-01T10:00:00.000Z",
  model: "qwen",
  endpoint: "/v1/chat/completions",
  status: 500,
  errorCode: null,
  requestId: "req 1&x",
  owner: "team:ml",
  keyPrefix: "ab12",
  latencyMs: 40,
  replicaId: "qwen-1",
  nodeId: "node/a",
  nodeName: "gpu-a",
  isReplicaGone: false,
  noNodeReason: null,
};

describe("nodeLogsHref", () => {
  it("opens the node's log on the request, with both ids escaped", () => {
    expect(nodeLogsHref(failed)).toBe("/nodes/node%2Fa/logs?request=req+1%26x");
  });

  it("gives no link when the node cannot be opened", () => {
    expect(nodeLogsHref({ ...failed, noNodeReason: "node-removed" })).toBeNull();
    expect(
      nodeLogsHref({ ...failed, nodeId: null, nodeName: null, noNodeReason: "no-replica" }),
    ).toBeNull();
  });
});

describe("rangeSinceIso", () => {
  it("starts the window the range's length before now", () => {
    const nowMs = Date.parse("2030-01-02T00:00:00Z");
    expect(rangeSinceIso("1h", nowMs)).toBe("2030-01-01T23:00:00.000Z");
    expect(rangeSinceIso("7d", nowMs)).toBe("2029-12-26T00:00:00.000Z");
  });
});
