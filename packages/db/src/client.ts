// Opens the store: embedded PGlite in a data directory by default, PostgreSQL through
// postgres-js when a URL is given. Migrations from the top-level drizzle/ folder (a release's own
// drizzle/) run on open, so both backends always carry the same schema.
import { INSTALL } from "@llmgw/domain/install";
import { mkdirSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { lockPgliteDir } from "./pglite-lock";
import * as schema from "./schema/index";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type StoreOptions =
  { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string; maxConnections?: number };

export interface Store {
  db: Database;
  kind: StoreOptions["kind"];
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = INSTALL.migrationsDir;

/** Each open PGlite store's own client, by its Drizzle handle (see pgliteCopyFrom). */
const pgliteClients = new WeakMap<Database, PGlite>();

/**
 * `COPY table (columns) FROM` the CSV text `csv()` makes, straight through PGlite's client (its
 * `/dev/blob`): no Drizzle and no parameter, the cheapest way into PGlite for many rows. Resolves
 * false, having done nothing, when `db` is not an open PGlite store's own handle (PostgreSQL, a
 * transaction's handle), for the caller to write its rows another way.
 */
export async function pgliteCopyFrom(
  db: Database,
  target: string,
  csv: () => string,
): Promise<boolean> {
  const client = pgliteClients.get(db);
  if (!client) return false;
  await client.query(`COPY ${target} FROM '/dev/blob' WITH (FORMAT csv)`, [], {
    blob: new Blob([csv()]),
  });
  return true;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  return options.kind === "pglite" ? openPglite(options.dataDir) : openPostgres(options);
}

/** The embedded store's shared buffers (see openPglite). */
export const PGLITE_SHARED_BUFFERS = "16MB";

async function openPglite(dataDir: string): Promise<Store> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  mkdirSync(dataDir, { recursive: true });
  // Before PGlite reads a byte: a second process on the directory must not open it at all.
  const lock = lockPgliteDir(dataDir);
  try {
    // PostgreSQL's default 128 MB of shared buffers lives in PGlite's WebAssembly memory and is
    // touched at start, so it is resident whatever the data: 16 MB holds llmgw's working set and
    // took the server's RSS down by about 130 MiB (docs/benchmarks.md, P10). Given on the command
    // line, not as postgresqlconf: PGlite would rewrite the data directory's postgresql.conf.
    const client = await PGlite.create(dataDir, {
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    });
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    pgliteClients.set(db, client);
    const close = async () => {
      pgliteClients.delete(db);
      await client.close();
      lock.release();
    };
    return { db: db as unknown as Database, kind: "pglite", close };
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openPostgres(options: { url: string; maxConnections?: number }): Promise<Store> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // Notices (e.g. "relation already exists, skipping") are noise at every start.
  const client = postgres(options.url, { max: options.maxConnections ?? 10, onnotice: () => {} });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    db: db as unknown as Database,
    kind: "postgres",
    close: () => client.end({ timeout: 5 }),
  };
}
