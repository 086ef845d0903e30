// copyStore from a real PGlite store into a real PostgreSQL 15: every table of the migrated schema
// is copied (a table the schema's exports miss fails here), rows keep their values and types,
// serial ids continue after the copied ones, and a target that holds rows is refused untouched.
import { getTableConfig } from "drizzle-orm/pg-core";
import { afterAll, describe, expect, it } from "vitest";
import { startPostgres, tempDir, type PostgresServer } from "@llmgw/testing";
import {
  copyStore,
  eq,
  nodes,
  openStore,
  sealedSecrets,
  sessions,
  sql,
  storeTables,
  usageRecords,
  users,
  type Database,
} from "../src/index";

let postgres: PostgresServer | undefined;
afterAll(async () => postgres?.stop());

const AT = new Date("2026-11-30T12:00:00.000Z");

async function seed(db: Database): Promise<void> {
  await db.insert(users).values({ id: "u1", username: "ada", role: "admin", createdAt: AT });
  await db.insert(sessions).values({ tokenHash: "h1", userId: "u1", expiresAt: AT });
  await db.insert(sealedSecrets).values({ name: "replica-key-secret", sealed: "v1:abc" });
  await db.insert(nodes).values({
    ...{ id: "node-a", name: "alpha", agentVersion: "0.1.0", labels: { rack: "r1" } },
    host: { cpuModel: "EPYC", cpuCores: 64, os: "linux", arch: "x64", driverVersion: null },
    ...{ memoryBytesTotal: 512 * 2 ** 30, diskBytesTotal: 8 * 2 ** 40 },
  });
  const usage = { keyId: "k1", owner: "team:ml", model: "m", endpoint: "/v1/chat/completions" };
  const counts = { promptTokens: 3, completionTokens: 5, latencyMs: 7, status: 200, at: AT };
  // More rows than one page of the copy, so paging is exercised.
  await db
    .insert(usageRecords)
    .values(Array.from({ length: 2_345 }, (_, i) => ({ ...usage, ...counts, requestId: `r${i}` })));
}

/** postgres-js answers rows as an array, PGlite as `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

async function count(db: Database, table: string): Promise<number> {
  const result: unknown = await db.execute(
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return rowsOf<{ n: number }>(result)[0]?.n ?? -1;
}

async function publicTables(db: Database): Promise<string[]> {
  const result: unknown = await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public'`,
  );
  return rowsOf<{ table_name: string }>(result)
    .map((row) => row.table_name)
    .sort();
}

describe("copyStore, PGlite → PostgreSQL", () => {
  it("copies every table of the migrated schema, rows and types intact", async () => {
    const source = await openStore({ kind: "pglite", dataDir: (await tempDir("copy-src")).path });
    postgres ??= await startPostgres({ database: "copy_target" });
    const target = await openStore({ kind: "postgres", url: postgres.url });
    await seed(source.db);

    const copied = await copyStore(source.db, target.db);
    // Every table the migrations made is in the copy; one missing from the schema's exports fails.
    expect(copied.map((table) => table.name).sort()).toEqual(await publicTables(target.db));
    expect(storeTables().length).toBe(copied.length);
    for (const table of copied)
      expect(await count(target.db, table.name), table.name).toBe(
        await count(source.db, table.name),
      );
    expect(copied.find((table) => table.name === "usage_records")?.rows).toBe(2_345);

    const [node] = await target.db.select().from(nodes).where(eq(nodes.id, "node-a"));
    expect(node?.labels).toEqual({ rack: "r1" });
    expect(node?.diskBytesTotal).toBe(8 * 2 ** 40);
    const [user] = await target.db.select().from(users);
    expect(user?.createdAt.toISOString()).toBe(AT.toISOString());
    // The next usage row gets an id after the copied ones instead of colliding with id 1.
    const [next] = await target.db
      .insert(usageRecords)
      .values({
        ...{ keyId: "k", owner: "o", model: "m", endpoint: "/v1/x", requestId: "new" },
        ...{ promptTokens: 0, completionTokens: 0, latencyMs: 0, status: 200, at: AT },
      })
      .returning({ id: usageRecords.id });
    expect(next?.id).toBe(2_346);

    // A target that holds rows is refused, and the refusal changes nothing in it.
    await expect(copyStore(source.db, target.db)).rejects.toThrow(
      /already holds llmgw rows: .*users \(1\)/,
    );
    expect(await count(target.db, "usage_records")).toBe(2_346);
    await source.close();
    await target.close();
  });

  it("lists every table after the tables its foreign keys point at", () => {
    const order = storeTables();
    const references = order.flatMap((table) =>
      getTableConfig(table).foreignKeys.map((key) => ({
        child: order.indexOf(table),
        parent: order.indexOf(key.reference().foreignTable),
      })),
    );
    expect(references.length).toBeGreaterThanOrEqual(5);
    for (const { child, parent } of references) expect(parent).toBeLessThan(child);
    expect(order.indexOf(users)).toBeLessThan(order.indexOf(sessions));
  });
});
