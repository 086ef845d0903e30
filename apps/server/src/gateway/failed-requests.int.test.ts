// The failed-requests list on a real PGlite store: only statuses of 400 or more, or a stream cut
// with an error code after its 200; newest first in pages, filtered by model and window, each row
// with its key's prefix and the node its replica ran on, read from the live replica or, for one
// since stopped, from its placement event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiKeys,
  events,
  nodes,
  openStore,
  replicas,
  usageRecords,
  type NewUsageRecord,
  type Store,
} from "@llmgw/db";
import { ServiceError } from "@llmgw/api";
import { tempDir } from "@llmgw/testing";
import { failedRequests } from "./failed-requests";

let store: Store;
const nowMs = Date.parse("2030-06-01T12:00:00Z");
const minutesAgo = (minutes: number) => new Date(nowMs - minutes * 60_000);

function usage(requestId: string, status: number, overrides: Partial<NewUsageRecord> = {}) {
  return {
    keyId: "key-1",
    owner: "team:ml",
    model: "qwen",
    endpoint: "/v1/chat/completions",
    replicaId: "rep-live",
    requestId,
    promptTokens: 1,
    completionTokens: 1,
    latencyMs: 10,
    status,
    at: minutesAgo(10),
    ...overrides,
  } satisfies NewUsageRecord;
}

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("failed-store")).path });
  const host = { cpuModel: "x", cpuCores: 1, os: "linux", arch: "x64", driverVersion: null };
  await store.db.insert(nodes).values({
    ...{ id: "node-a", name: "gpu-a", agentVersion: "1", host },
    ...{ memoryBytesTotal: 1, diskBytesTotal: 1 },
  });
  await store.db.insert(replicas).values({
    ...{ id: "rep-live", model: "qwen", profile: "p", modelRevision: 1, nodeId: "node-a" },
    ...{ engine: "sim", phase: "ready" },
  });
  await store.db.insert(apiKeys).values({
    ...{ id: "key-1", prefix: "llmgw_ab12", keyHash: "h", owner: "team:ml", models: ["*"] },
    createdBy: "admin",
  });
  await store.db.insert(events).values([
    {
      ...{ kind: "replica.placed", severity: "info", subjectType: "replica" },
      ...{ subjectId: "rep-gone", params: { model: "qwen", node: "gpu-a", nodeId: "node-a" } },
    },
    {
      ...{ kind: "replica.placed", severity: "info", subjectType: "replica" },
      ...{ subjectId: "rep-away", params: { model: "qwen", node: "gpu-z", nodeId: "node-z" } },
    },
  ]);
  await store.db.insert(usageRecords).values([
    usage("ok-1", 200, { at: minutesAgo(50) }),
    usage("old-500", 500, { at: minutesAgo(60 * 30) }),
    usage("gone-502", 502, { replicaId: "rep-gone", at: minutesAgo(40) }),
    usage("limit-429", 429, { replicaId: null, keyId: "key-deleted", at: minutesAgo(30) }),
    usage("other-500", 500, { model: "llama", replicaId: "rep-away", at: minutesAgo(20) }),
    usage("ok-2", 200, { at: minutesAgo(15) }),
    // A stream that began with 200 and was cut by an error event has failed too.
    usage("cut-200", 200, { errorCode: "upstream_interrupted", at: minutesAgo(12) }),
    usage("live-503", 503, { at: minutesAgo(10) }),
  ]);
});
afterAll(async () => store?.close());

describe("failed requests", () => {
  it("lists the day's failures newest first, each with its key prefix and node", async () => {
    const page = await failedRequests(store.db, { limit: 50 }, nowMs);
    expect(page.requests.map((r) => r.requestId)).toEqual([
      ...["live-503", "cut-200", "other-500", "limit-429", "gone-502"],
    ]);
    expect(page.nextCursor).toBeNull();
    const [live, cut, away, limited, gone] = page.requests;
    expect(cut).toMatchObject({ status: 200, errorCode: "upstream_interrupted", nodeId: "node-a" });
    expect(live?.errorCode).toBeNull();
    expect(live).toMatchObject({ keyPrefix: "llmgw_ab12", nodeId: "node-a", nodeName: "gpu-a" });
    expect(live).toMatchObject({ isReplicaGone: false, noNodeReason: null, status: 503 });
    expect(away).toMatchObject({ nodeId: "node-z", nodeName: "gpu-z" });
    expect(away).toMatchObject({ isReplicaGone: true, noNodeReason: "node-removed" });
    expect(limited).toMatchObject({ keyPrefix: null, replicaId: null, noNodeReason: "no-replica" });
    expect(gone).toMatchObject({ replicaId: "rep-gone", nodeId: "node-a", isReplicaGone: true });
    expect(gone?.noNodeReason).toBeNull();
  });

  it("pages with the cursor, without repeating or losing a row", async () => {
    const first = await failedRequests(store.db, { limit: 3 }, nowMs);
    expect(first.requests).toHaveLength(3);
    const cursor = first.nextCursor ?? 0;
    expect(cursor).toBeGreaterThan(0);
    const second = await failedRequests(store.db, { limit: 3, cursor }, nowMs);
    expect(second.requests.map((r) => r.requestId)).toEqual(["limit-429", "gone-502"]);
    expect(second.nextCursor).toBeNull();
  });

  it("filters by model and by window, and refuses a window that ends before it starts", async () => {
    const llama = await failedRequests(store.db, { limit: 50, model: "llama" }, nowMs);
    expect(llama.requests.map((r) => r.requestId)).toEqual(["other-500"]);
    const lastQuarter = await failedRequests(
      store.db,
      { limit: 50, since: minutesAgo(25).toISOString() },
      nowMs,
    );
    expect(lastQuarter.requests.map((r) => r.requestId)).toEqual([
      "live-503",
      "cut-200",
      "other-500",
    ]);
    const twoDays = await failedRequests(
      store.db,
      { limit: 50, since: minutesAgo(48 * 60).toISOString() },
      nowMs,
    );
    expect(twoDays.requests.map((r) => r.requestId)).toContain("old-500");
    await expect(
      failedRequests(
        store.db,
        { limit: 50, since: minutesAgo(1).toISOString(), until: minutesAgo(2).toISOString() },
        nowMs,
      ),
    ).rejects.toBeInstanceOf(ServiceError);
  });
});
