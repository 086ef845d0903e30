import { describe, expect, it } from "vitest";
import type { FailedRequest, FailedRequestsPage } from "@llmgw/api";
import type { CtlValues } from "../args";
import { parseCtlArgs } from "../program";
import { failedInput, failedTable, logsHint } from "./requests";

function values(argv: string[]): CtlValues {
  const parsed = parseCtlArgs(["requests", "failed", ...argv]);
  if (typeof parsed === "number") throw new Error(`requests failed ${argv.join(" ")} was refused`);
  return parsed.values;
}

const failed: FailedRequest = {
  id: 9,
  at: "2030-01-01T10:00:00.000Z",
  model: "qwen",
  endpoint: "/v1/chat/completions",
  status: 500,
  errorCode: "replica_error",
  requestId: "req-9",
  owner: "team:ml",
  keyPrefix: "ab12",
  latencyMs: 40,
  replicaId: "qwen-1",
  nodeId: "node-a",
  nodeName: "gpu-a",
  isReplicaGone: false,
  noNodeReason: null,
};

describe("ctl requests failed", () => {
  it("turns --since 1h into a time an hour back and keeps --model and --limit", () => {
    const nowMs = Date.parse("2030-01-01T12:00:00Z");
    expect(
      failedInput(values(["--model", "qwen", "--since", "1h", "--limit", "5"]), nowMs),
    ).toEqual({ model: "qwen", since: "2030-01-01T11:00:00.000Z", limit: 5 });
    expect(failedInput(values([]), nowMs)).toEqual({
      model: undefined,
      since: undefined,
      limit: 50,
    });
    expect(() => failedInput(values(["--limit", "0"]), nowMs)).toThrow(/--limit/);
  });

  it("hints the logs command on the node by name, or says why there is none", () => {
    expect(logsHint(failed)).toBe("llmgw ctl logs gpu-a --request req-9");
    expect(logsHint({ ...failed, nodeId: null, nodeName: null, noNodeReason: "no-replica" })).toBe(
      "no node log: refused before any replica was reached",
    );
    expect(logsHint({ ...failed, noNodeReason: "node-removed" })).toMatch(/node has been removed/);
  });

  it("prints a row per request with the key's prefix, then a hint per request", () => {
    const page: FailedRequestsPage = {
      since: "2030-01-01T00:00:00.000Z",
      until: "2030-01-02T00:00:00.000Z",
      requests: [
        failed,
        {
          ...failed,
          id: 8,
          status: 200,
          errorCode: "upstream_interrupted",
          requestId: "req-8",
          replicaId: "qwen-0",
          isReplicaGone: true,
        },
      ],
      nextCursor: 8,
    };
    const text = failedTable(page);
    expect(text).toMatch(/TIME +MODEL +STATUS +KEY +REQUEST +REPLICA +NODE/);
    expect(text).toMatch(/qwen +500 replica_error +llmgw_ab12_… +req-9 +qwen-1 +gpu-a/);
    expect(text).toMatch(/qwen +200 upstream_interrupted +llmgw_ab12_… +req-8 +qwen-0 \(gone\)/);
    expect(text).toContain("qwen-0 (gone)");
    expect(text).toContain("  req-8: llmgw ctl logs gpu-a --request req-8");
    expect(text).toContain("more are older");
    expect(failedTable({ ...page, requests: [], nextCursor: null })).toContain(
      "no failed requests in this range",
    );
  });
});
