// The recorder on a real PGlite store: severity and subject come from the kind, info starts
// acknowledged, a node's repeated state is one event, and retention keeps the newest rows only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, events, openStore, sql, type Store } from "@llmgw/db";
import { tempDir } from "@llmgw/testing";
import {
  createEventRecorder,
  EVENTS_KEPT_MAX,
  EVENTS_KEPT_MS,
  pruneEvents,
} from "./event-recorder";

let store: Store;
const nowMs = Date.parse("2030-06-01T00:00:00Z");
const logged: string[] = [];

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("events-store")).path });
});
afterAll(async () => store?.close());

describe("event recorder", () => {
  it("derives severity and subject from the kind and announces a node state once", async () => {
    const recorder = createEventRecorder(
      store.db,
      () => nowMs,
      (line) => logged.push(line),
    );
    recorder.record("node.unreachable", "n1", { node: "gpu-1" });
    recorder.record("node.unreachable", "n1", { node: "gpu-1" });
    recorder.record("node.back", "n1", { node: "gpu-1" });
    recorder.record("key.created", "k1", { owner: "team:ml" });
    await recorder.flush();
    const rows = await store.db.select().from(events).orderBy(asc(events.id));
    expect(rows.map((r) => [r.kind, r.severity, r.subjectType, r.isAcknowledged])).toEqual([
      ["node.unreachable", "warning", "node", false],
      ["node.back", "info", "node", true],
      ["key.created", "info", "key", true],
    ]);
    expect(logged).toEqual([]);
  });

  it("keeps only rows younger than the kept age and the newest EVENTS_KEPT_MAX", async () => {
    await store.db.delete(events);
    const old = new Date(nowMs - EVENTS_KEPT_MS - 60_000);
    const row = (at: Date, i: number) => ({
      at,
      kind: "replica.placed",
      severity: "info",
      subjectType: "replica",
      subjectId: `r-${i}`,
      params: { i },
      isAcknowledged: true,
    });
    await store.db.insert(events).values([row(old, -1)]);
    const fresh = Array.from({ length: EVENTS_KEPT_MAX + 5 }, (_, i) => row(new Date(nowMs), i));
    for (let i = 0; i < fresh.length; i += 2_000)
      await store.db.insert(events).values(fresh.slice(i, i + 2_000));
    await pruneEvents(store.db, nowMs);
    const [count] = await store.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(events);
    expect(count?.n).toBe(EVENTS_KEPT_MAX);
    const [oldest] = await store.db.select().from(events).orderBy(asc(events.id)).limit(1);
    // The five oldest fresh rows and the stale one are gone.
    expect(oldest?.params).toEqual({ i: 5 });
  });
});
