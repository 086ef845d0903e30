// The usage recorder on PGlite: every row is written, in batches, and a key's last use is noted
// at most once a second (an UPDATE per batch of a busy key would cost as much as its rows).
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, eq, openStore, usageRecords, type NewUsageRecord, type Store } from "@llmgw/db";
import { tempDir } from "@llmgw/testing";
import { UsageRecorder } from "./usage-recorder";

let store: Store;
beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("usage-recorder")).path });
  await store.db.insert(apiKeys).values({
    ...{ id: "key-1", prefix: "llmgw_abc", keyHash: "hash", owner: "team:ml", models: ["*"] },
    ...{ createdBy: "test", createdAt: new Date(0) },
  });
});
afterAll(async () => store?.close());

const T0_MS = Date.parse("2030-06-01T12:00:00.000Z");

function row(n: number, atMs: number, keyId = "key-1"): NewUsageRecord {
  return {
    ...{ keyId, owner: "team:ml", model: "qwen", endpoint: "/v1/chat/completions" },
    ...{ replicaId: "rep-1", requestId: `req-${n}`, promptTokens: 1, completionTokens: 2 },
    ...{ latencyMs: 3, ttftMs: null, status: 200, errorCode: null, at: new Date(atMs) },
  };
}

const lastUsedMs = async (keyId = "key-1") =>
  (await store.db.select().from(apiKeys).where(eq(apiKeys.id, keyId)))[0]?.lastUsedAt?.getTime();

it("writes every row and notes a key's last use at most once a second", async () => {
  const recorder = new UsageRecorder(store.db, () => {});
  for (let n = 0; n < 450; n += 1) recorder.record(row(n, T0_MS + n));
  await recorder.flush();
  expect(await store.db.$count(usageRecords)).toBe(450);
  // Three batches of that key within a second: noted once, by the first.
  expect(await lastUsedMs()).toBe(T0_MS + 199);
  recorder.record(row(450, T0_MS + 900));
  await recorder.flush();
  expect(await lastUsedMs()).toBe(T0_MS + 199);
  recorder.record(row(451, T0_MS + 1_500));
  await recorder.flush();
  expect(await lastUsedMs()).toBe(T0_MS + 1_500);
  await recorder.stop();
});

it("notes the last use of every key of a batch, each at its own last row", async () => {
  await store.db.insert(apiKeys).values(
    ["key-2", "key-3"].map((id) => ({
      ...{ id, prefix: `llmgw_${id}`, keyHash: `hash-${id}`, owner: "team:ml", models: ["*"] },
      ...{ createdBy: "test", createdAt: new Date(0) },
    })),
  );
  const recorder = new UsageRecorder(store.db, () => {});
  const t1 = T0_MS + 60_000;
  // key-gone has no row: its note changes nothing and keeps nobody else's from being written.
  const keys = ["key-2", "key-3", "key-gone", "key-2", "key-3", "key-2"];
  keys.forEach((keyId, n) => recorder.record(row(1_000 + n, t1 + n * 10, keyId)));
  await recorder.flush();
  expect(await store.db.$count(usageRecords)).toBe(452 + keys.length);
  expect(await lastUsedMs("key-2")).toBe(t1 + 50);
  expect(await lastUsedMs("key-3")).toBe(t1 + 40);
  expect(await lastUsedMs("key-1")).toBe(T0_MS + 1_500);
  await recorder.stop();
});
