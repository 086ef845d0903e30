// The store on both backends: migrations apply, rows survive closing and reopening, and the
// committed migrations match the schema.
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startPostgres, tempDir, type PostgresServer } from "@llmgw/testing";
import { MIGRATIONS_DIR, eq, nodes, openStore, settings, type StoreOptions } from "../src/index";

let postgres: PostgresServer | undefined;
afterAll(async () => postgres?.stop());

const backends: Array<{ name: string; options: () => Promise<StoreOptions> }> = [
  {
    name: "PGlite",
    options: async () => ({ kind: "pglite", dataDir: (await tempDir("db-pglite")).path }),
  },
  {
    name: "PostgreSQL 15",
    options: async () => ({ kind: "postgres", url: (postgres ??= await startPostgres()).url }),
  },
];

describe.each(backends)("store on $name", ({ options }) => {
  it("keeps what was written across a close and reopen, migrating twice without harm", async () => {
    const opts = await options();
    const first = await openStore(opts);
    await first.db.insert(nodes).values({
      id: "node-a",
      name: "alpha",
      agentVersion: "0.1.0",
      host: { cpuModel: "EPYC", cpuCores: 64, os: "linux", arch: "x64", driverVersion: null },
      memoryBytesTotal: 512 * 2 ** 30,
      diskBytesTotal: 8 * 2 ** 40,
      labels: { rack: "r1" },
    });
    await first.db.insert(settings).values({ key: "fleet.name", value: { name: "lab" } });
    await first.close();

    const second = await openStore(opts);
    const [row] = await second.db.select().from(nodes).where(eq(nodes.id, "node-a"));
    expect(row?.name).toBe("alpha");
    expect(row?.labels).toEqual({ rack: "r1" });
    expect(row?.diskBytesTotal).toBe(8 * 2 ** 40);
    expect((await second.db.select().from(settings))[0]?.value).toEqual({ name: "lab" });
    await second.close();
  });
});

describe("migrations", () => {
  it("are up to date with the schema (drizzle-kit generate finds nothing to add)", async () => {
    const out = (await tempDir("db-migrations")).path;
    cpSync(MIGRATIONS_DIR, out, { recursive: true });
    const before = readdirSync(out).filter((f) => f.endsWith(".sql"));
    const cwd = join(import.meta.dirname, "..");
    // drizzle-kit prefixes "./" to --out, so it must be relative; it also exits 0 on errors.
    const output = execFileSync(
      process.execPath,
      [
        join(cwd, "node_modules", "drizzle-kit", "bin.cjs"),
        "generate",
        "--dialect",
        "postgresql",
        "--schema",
        "./src/schema/*.ts",
        "--out",
        relative(cwd, out),
      ],
      { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    expect(output).toMatch(/No schema changes|migration file/);
    const after = readdirSync(out).filter((f) => f.endsWith(".sql"));
    expect(after, "the schema changed without a migration: run `npm run db:generate`").toEqual(
      before,
    );
  });
});
