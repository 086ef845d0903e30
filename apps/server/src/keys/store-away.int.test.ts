// The store going away under /v1's key lookup and the audit log, on a real PGlite store behind a
// switch that makes every query fail as a refused connection does. A key seen before keeps serving
// on its last answer (bounded), a key never seen is refused as "store away", a revocation made
// elsewhere takes effect within the cache time once the store answers, and audit rows written
// while it is away wait in order and are all written once it returns.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, asc, auditLog, eq, openStore, type Database, type Store } from "@llmgw/db";
import { tempDir } from "@llmgw/testing";
import { keepAuditWhileStoreAway } from "../identity/audit-queue";
import { recordAudit } from "../identity/audit";
import { isStoreAway } from "../store-queue";
import { createKeysService } from "./keys-service";

let store: Store;
let isAway = false;
let db: Database;
let clockMs = Date.parse("2026-12-01T10:00:00Z");

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("store-away")).path });
  // The server's handle, as it sees it: every statement fails while the switch is on.
  db = new Proxy(store.db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (isAway && ["select", "insert", "update", "delete"].includes(String(property)))
          throw refused();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
});
afterAll(async () => store?.close());

describe("API keys while the store is away", () => {
  const admin = { username: "admin" };

  it("keeps a key seen before serving on its last answer, for at most 10 minutes", async () => {
    const keys = createKeysService(db, randomBytes(32), () => clockMs);
    const { key } = await keys.create({ owner: "team:ml", models: ["*"] }, admin);
    expect((await keys.check(key)).ok).toBe(true);
    isAway = true;
    try {
      clockMs += 60_000; // Past the 5 s cache: the lookup goes to the store and fails.
      expect((await keys.check(key)).ok).toBe(true);
      clockMs += 9 * 60_000;
      await expect(keys.check(key)).rejects.toSatisfy(isStoreAway);
    } finally {
      isAway = false;
    }
    expect((await keys.check(key)).ok).toBe(true);
  });

  it("refuses a key never seen while the store is away, as the store's absence, not a bad key", async () => {
    const keys = createKeysService(db, randomBytes(32), () => clockMs);
    const { key } = await keys.create({ owner: "team:ml", models: ["*"] }, admin);
    isAway = true;
    try {
      await expect(keys.check(key)).rejects.toSatisfy(isStoreAway);
    } finally {
      isAway = false;
    }
  });

  it("honours a revocation made by another control plane within 5 s once the store answers", async () => {
    const keys = createKeysService(db, randomBytes(32), () => clockMs);
    const { key, view } = await keys.create({ owner: "team:ml", models: ["*"] }, admin);
    expect((await keys.check(key)).ok).toBe(true);
    // Another control plane on the same store revokes it; this one still holds its cached row.
    await store.db
      .update(apiKeys)
      .set({ revokedAt: new Date(clockMs) })
      .where(eq(apiKeys.id, view.id));
    clockMs += 5_000;
    const check = await keys.check(key);
    expect(check).toEqual({ ok: false, why: expect.stringMatching(/was revoked at/) as string });
  });
});

describe("audit rows while the store is away", () => {
  it("keeps them in order and writes each once when the store returns", async () => {
    const lines: string[] = [];
    const queue = keepAuditWhileStoreAway(db, (line) => lines.push(line));
    try {
      await recordAudit(db, { actor: "ada", action: "outage.before" });
      isAway = true;
      await recordAudit(db, { actor: "ada", action: "outage.first", details: { password: "x" } });
      await recordAudit(db, { actor: "ada", action: "outage.second" });
      await queue.flush();
      expect(queue.size()).toBe(2);
      isAway = false;
      // The store is back, but rows still wait: a new one queues behind them, keeping the order.
      await recordAudit(db, { actor: "ada", action: "outage.after" });
      expect(queue.size()).toBe(3);
      await queue.flush();
      expect(queue.size()).toBe(0);
      const rows = await store.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.actor, "ada"))
        .orderBy(asc(auditLog.id));
      expect(rows.map((r) => r.action)).toEqual([
        "outage.before",
        "outage.first",
        "outage.second",
        "outage.after",
      ]);
      expect(rows[1]?.details).toEqual({ password: "[redacted]" });
      expect(lines.some((line) => line.includes("could not save 2 audit rows (kept"))).toBe(true);
    } finally {
      isAway = false;
      await queue.stop();
    }
  });

  it("fails the write as before on a handle with no queue (a transaction: the change rolls back too)", async () => {
    const bare = {
      insert: () => {
        throw refused();
      },
    } as unknown as Database;
    await expect(recordAudit(bare, { actor: "bob", action: "x" })).rejects.toSatisfy(isStoreAway);
  });
});
