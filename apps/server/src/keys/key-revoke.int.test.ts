// Attacks on the key check now that a key's HMAC is remembered (verified-keys.ts), on a real PGlite
// store: a revoked key's very next request is refused, whether it was revoked here or by another
// control plane sharing the store (within the 5 s row cache, as before); an expired key is refused
// on the instant; a guessed secret under a known key's prefix never rides on that key's memory.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, eq, openStore, type Store } from "@llmgw/db";
import { formatApiKey, parseApiKey } from "@llmgw/domain";
import { tempDir } from "@llmgw/testing";
import { createKeysService } from "./keys-service";

let store: Store;
let clockMs = Date.parse("2026-12-01T10:00:00Z");
const admin = { username: "admin" };
const why = async (check: Promise<{ ok: true } | { ok: false; why: string }>) => {
  const answer = await check;
  return answer.ok ? "ok" : answer.why;
};

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("key-revoke")).path });
});
afterAll(async () => store?.close());

describe("a remembered key", () => {
  it("is refused on the request right after its revoke", async () => {
    const keys = createKeysService(store.db, randomBytes(32), () => clockMs);
    const { key, view } = await keys.create({ owner: "team:ml", models: ["*"] }, admin);
    for (let i = 0; i < 3; i++) expect(await why(keys.check(key))).toBe("ok");
    await keys.revoke(view.id, admin);
    expect(await why(keys.check(key))).toMatch(/was revoked/);
  });

  it("is refused within 5 s of a revoke made by another control plane", async () => {
    const pepper = randomBytes(32);
    const here = createKeysService(store.db, pepper, () => clockMs);
    const elsewhere = createKeysService(store.db, pepper, () => clockMs);
    const { key, view } = await here.create({ owner: "team:ml", models: ["*"] }, admin);
    expect(await why(here.check(key))).toBe("ok");
    await elsewhere.revoke(view.id, admin);
    clockMs += 5_000;
    expect(await why(here.check(key))).toMatch(/was revoked/);
  });

  it("is refused the moment it expires", async () => {
    const keys = createKeysService(store.db, randomBytes(32), () => clockMs);
    const created = await keys.create(
      { owner: "team:ml", models: ["*"], expiresInSeconds: 60 },
      admin,
    );
    expect(await why(keys.check(created.key))).toBe("ok");
    clockMs += 60_000;
    expect(await why(keys.check(created.key))).toMatch(/expired/);
  });

  it("lends nothing to a guessed secret under its prefix, nor to itself once its hash changes", async () => {
    const keys = createKeysService(store.db, randomBytes(32), () => clockMs);
    const { key, view } = await keys.create({ owner: "team:ml", models: ["*"] }, admin);
    expect(await why(keys.check(key))).toBe("ok");
    const parsed = parseApiKey(key);
    if (!parsed.ok) throw new Error(parsed.why);
    const guess = formatApiKey(
      parsed.prefix,
      randomBytes(parsed.secret.length / 2).toString("hex"),
    );
    expect(await why(keys.check(guess))).toBe("the API key is not known");
    // The stored hash replaced under the same prefix (a key re-issued in place): the old secret,
    // remembered against the old hash, is checked afresh once the row is read again.
    await store.db
      .update(apiKeys)
      .set({ keyHash: "00".repeat(32) })
      .where(eq(apiKeys.id, view.id));
    clockMs += 5_000;
    expect(await why(keys.check(key))).toBe("the API key is not known");
  });
});
