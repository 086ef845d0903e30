// Reading the audit log on a real PGlite store: rows that hold an id (a key, a revoked grant's
// person or group) read with a name, and the actor and target filters run in the query, a name
// finding the rows that hold its id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, groups, openStore, users, type Store } from "@llmgw/db";
import { tempDir } from "@llmgw/testing";
import { createAuditService, recordAudit } from "./audit";

let store: Store;

beforeAll(async () => {
  store = await openStore({ kind: "pglite", dataDir: (await tempDir("audit-store")).path });
  const db = store.db;
  await db.insert(users).values([
    { id: "u-ada", username: "ada" },
    { id: "u-bob", username: "bob" },
  ]);
  await db.insert(groups).values({ id: "g-ops", name: "ml-operators" });
  await db.insert(apiKeys).values({
    id: "k-123",
    prefix: "llmgw_ab12",
    keyHash: "x",
    owner: "team:ml",
    models: ["*"],
    createdBy: "ada",
  });
  await recordAudit(db, { actor: "admin", action: "key.create", target: "k-123" });
  await recordAudit(db, { actor: "admin", action: "role.revoke", target: "user:u-ada" });
  await recordAudit(db, { actor: "ada", action: "role.revoke", target: "group:g-ops" });
  await recordAudit(db, { actor: "bob", action: "user.create", target: "carol" });
  await recordAudit(db, { actor: "bob", action: "org.create", target: "team:100%_real" });
});
afterAll(async () => store?.close());

describe("audit log reading", () => {
  const list = (filter: { actor?: string; target?: string }) =>
    createAuditService(store.db).list({ limit: 100, ...filter });

  it("names the key, person and group that rows hold by id", async () => {
    const rows = await list({});
    expect(rows.map((r) => [r.target, r.targetName]).reverse()).toEqual([
      ["k-123", "llmgw_ab12… (team:ml)"],
      ["user:u-ada", "user:ada"],
      ["group:g-ops", "group:ml-operators"],
      ["carol", "carol"],
      ["team:100%_real", "team:100%_real"],
    ]);
  });

  it("filters by target: a name finds the rows holding its id, any case", async () => {
    expect((await list({ target: "ADA" })).map((r) => r.target)).toEqual(["user:u-ada"]);
    expect((await list({ target: "llmgw_ab" })).map((r) => r.target)).toEqual(["k-123"]);
    expect((await list({ target: "operators" })).map((r) => r.target)).toEqual(["group:g-ops"]);
    expect((await list({ target: "car" })).map((r) => r.target)).toEqual(["carol"]);
  });

  it("takes % and _ literally, so a filter cannot match everything", async () => {
    expect((await list({ target: "%" })).map((r) => r.target)).toEqual(["team:100%_real"]);
    expect(await list({ target: "_x" })).toEqual([]);
  });

  it("filters by actor, any case, and says nothing when nothing matches", async () => {
    expect((await list({ actor: "BO" })).map((r) => r.action)).toEqual([
      "org.create",
      "user.create",
    ]);
    expect(await list({ actor: "nobody" })).toEqual([]);
  });
});
