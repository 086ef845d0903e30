// `llmgw server migrate-store`: moves a home's embedded PGlite store into an empty PostgreSQL
// database, so that more control planes can share it (`llmgw server add`). Every row moves in one
// transaction — the sealed secrets and the replica-key secret are rows, still sealed under the
// home's master key, which stays where it is — then server.env gets the DATABASE_URL and the PGlite
// directory is renamed beside itself, kept rather than deleted, so nothing is lost.
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { messageOf } from "@llmgw/domain";
import { copyStore, openStore, type CopiedTable } from "@llmgw/db";
import { ConfigError, parseServerConfig } from "../config";
import { MIGRATE_STORE_USAGE, parseMigrateArgs, type MigrateOptions } from "./config";
import { refuseWhileRunning } from "./home-files";
import { formatSettingsFile, readSettingsFile, settingsPath } from "./settings-file";

export async function runMigrateStore(argv: string[]): Promise<number> {
  let options: MigrateOptions;
  try {
    options = parseMigrateArgs(argv);
  } catch (error) {
    process.stderr.write(
      `llmgw server migrate-store: ${messageOf(error)}\n\n${MIGRATE_STORE_USAGE}`,
    );
    return 2;
  }
  try {
    await migrateStore(options, (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (error) {
    process.stderr.write(`llmgw server migrate-store: ${messageOf(error)}\n`);
    return 1;
  }
}

export async function migrateStore(options: MigrateOptions, say: (line: string) => void) {
  const { homeDir } = options;
  const settings = readSettingsFile(homeDir);
  if (settings.DATABASE_URL)
    throw new ConfigError(
      `${settingsPath(homeDir)} already sets DATABASE_URL: this control plane's store is PostgreSQL, there is no PGlite store to move`,
    );
  // The home's own settings decide where PGlite lives; the DATABASE_URL in the environment (the
  // target, when --to is not given) must not make the home look like it is on PostgreSQL already.
  const config = parseServerConfig(["--home", homeDir], {
    ...options.env,
    DATABASE_URL: undefined,
    LLMGW_HOME: undefined,
  });
  if (config.store.kind !== "pglite") throw new ConfigError("the home's store is not PGlite");
  const { dataDir } = config.store;
  if (!existsSync(dataDir))
    throw new ConfigError(`there is no PGlite store at ${dataDir} (is --home the right home?)`);
  await refuseWhileRunning(
    config,
    "stop it first: the store is copied while nothing writes to it, and PGlite is one process's",
  );
  say(`llmgw server migrate-store: ${dataDir} → PostgreSQL`);
  const copied = await copyInto(dataDir, options.targetUrl);
  const rows = copied.reduce((sum, table) => sum + table.rows, 0);
  say(`  copied    ${rows} rows in ${copied.length} tables, in one transaction`);
  writeDatabaseUrl(homeDir, settings, options.targetUrl);
  say(`  settings  ${settingsPath(homeDir)}: DATABASE_URL set, the other settings kept`);
  const keptAt = keepAside(dataDir);
  say(`  PGlite    renamed to ${keptAt} (kept; remove it once the server runs on PostgreSQL)`);
  say("Next: start the server as before; it opens PostgreSQL with the same master key.");
}

async function copyInto(dataDir: string, targetUrl: string): Promise<CopiedTable[]> {
  const source = await openStore({ kind: "pglite", dataDir });
  try {
    const target = await openStore({ kind: "postgres", url: targetUrl, maxConnections: 1 }).catch(
      (error: unknown) => {
        throw new ConfigError(`the PostgreSQL database does not open: ${messageOf(error)}`);
      },
    );
    try {
      return await copyStore(source.db, target.db);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** Rewrites server.env with DATABASE_URL added, through a temporary file so it is never half-written. */
function writeDatabaseUrl(homeDir: string, settings: Record<string, string>, url: string): void {
  const path = settingsPath(homeDir);
  const entries = Object.entries({ ...settings, DATABASE_URL: url });
  writeFileSync(`${path}.new`, formatSettingsFile(entries), { mode: 0o600 });
  renameSync(`${path}.new`, path);
}

function keepAside(dataDir: string): string {
  const aside = `${dataDir}.moved-to-postgres`;
  const target = existsSync(aside) ? `${aside}-${Date.now()}` : aside;
  renameSync(dataDir, target);
  return target;
}
