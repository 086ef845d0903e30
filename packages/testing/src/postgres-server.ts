// A real PostgreSQL 15 for integration tests, from Debian's binaries, in a fresh temp dir on a free
// loopback port. initdb refuses to run as root, so as root the dir is handed to the `postgres` user
// and every server binary runs through `runuser -u postgres --`.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { appendFile, chown, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { messageOf } from "@llmgw/domain";
import postgres from "postgres";
import { registerCleanup } from "./cleanup-registry.ts";
import { freePort } from "./free-port.ts";
import { waitFor } from "./wait-for.ts";

const execFileAsync = promisify(execFile);
const DEFAULT_BIN_DIR = "/usr/lib/postgresql/15/bin";
const REQUIRED_BINARIES = ["initdb", "pg_ctl", "postgres"] as const;
const START_ATTEMPTS_MAX = 3;

export interface StartPostgresOptions {
  /** Database created for the caller (default "llmgw"). */
  database?: string;
  /** Where initdb and pg_ctl live (default /usr/lib/postgresql/15/bin). */
  binDir?: string;
  /** How long to wait for the server to accept connections (default 60 s). */
  startTimeoutMs?: number;
}

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/<database>`; trust auth, so no password. */
  url: string;
  port: number;
  /** The cluster's data directory (PGDATA); removed by stop(). */
  dataDir: string;
  /**
   * Stops the server (`pg_ctl stop -m fast`: sessions are ended, as in a real restart), waits
   * `downMs`, and starts it again on the same port and data directory. Says when it was away.
   */
  restart(downMs: number): Promise<{ downAtMs: number; upAtMs: number }>;
  /** Stops the server (`pg_ctl stop -m fast`) and removes its directory; safe to call twice. */
  stop(): Promise<void>;
}

interface Cluster {
  rootDir: string;
  dataDir: string;
  logFile: string;
  binDir: string;
  asPostgresUser: boolean;
}

function checkBinaries(binDir: string): void {
  const missing = REQUIRED_BINARIES.filter((name) => !existsSync(join(binDir, name)));
  if (missing.length > 0) {
    throw new Error(
      `startPostgres: ${missing.join(", ")} not found in ${binDir}; install the Debian package ` +
        `postgresql-15 (apt-get install -y postgresql-15) or pass binDir`,
    );
  }
}

async function runPgBinary(cluster: Cluster, binary: string, args: string[]): Promise<string> {
  const path = join(cluster.binDir, binary);
  const [command, commandArgs] = cluster.asPostgresUser
    ? ["runuser", ["-u", "postgres", "--", path, ...args]]
    : [path, args];
  try {
    // cwd inside the cluster dir: as the postgres user, the caller's cwd (e.g. /root) is unreadable.
    const { stdout } = await execFileAsync(command, commandArgs, { cwd: cluster.rootDir });
    return stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${binary} ${args.join(" ")} failed: ${stderr?.trim() || message}`);
  }
}

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  const passwd = await readFile("/etc/passwd", "utf8");
  const fields = passwd
    .split("\n")
    .find((line) => line.startsWith("postgres:"))
    ?.split(":");
  if (!fields) {
    throw new Error(
      "startPostgres: running as root but there is no `postgres` user to run initdb as; " +
        "install the Debian package postgresql-15, which creates it, or run the tests as a normal user",
    );
  }
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

async function createCluster(binDir: string): Promise<Cluster> {
  const asPostgresUser = process.getuid?.() === 0;
  const rootDir = await mkdtemp(join(tmpdir(), "llmgw-pg-"));
  const cluster = {
    rootDir,
    dataDir: join(rootDir, "data"),
    logFile: join(rootDir, "server.log"),
    binDir,
    asPostgresUser,
  };
  await mkdir(cluster.dataDir, { mode: 0o700 });
  if (asPostgresUser) {
    const { uid, gid } = await postgresUserIds();
    await chown(rootDir, uid, gid);
    await chown(cluster.dataDir, uid, gid);
  }
  await runPgBinary(cluster, "initdb", [
    "-D",
    cluster.dataDir,
    "-U",
    "postgres",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
    "--no-instructions",
  ]);
  return cluster;
}

async function writeSettings(cluster: Cluster, port: number): Promise<void> {
  // Durability is pointless for a throwaway cluster; turning it off makes migrations much faster.
  const settings = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${cluster.rootDir}'`,
    "fsync = off",
    "synchronous_commit = off",
    "full_page_writes = off",
    "shared_buffers = 32MB",
  ];
  await appendFile(
    join(cluster.dataDir, "postgresql.conf"),
    `\n# llmgw tests\n${settings.join("\n")}\n`,
  );
}

async function readLogTail(cluster: Cluster): Promise<string> {
  const log = await readFile(cluster.logFile, "utf8").catch(() => "");
  return log.split("\n").slice(-20).join("\n");
}

async function pgCtlStart(cluster: Cluster, timeoutMs: number): Promise<void> {
  const timeoutSeconds = String(Math.ceil(timeoutMs / 1000));
  await runPgBinary(cluster, "pg_ctl", [
    "start",
    "-D",
    cluster.dataDir,
    "-l",
    cluster.logFile,
    "-w",
    "-t",
    timeoutSeconds,
  ]);
}

/** The same cluster stopped and started again on its port; its settings file already names it. */
async function restartCluster(cluster: Cluster, downMs: number, timeoutMs: number) {
  await runPgBinary(cluster, "pg_ctl", ["stop", "-D", cluster.dataDir, "-m", "fast", "-w"]);
  const downAtMs = Date.now();
  await new Promise((resolve) => setTimeout(resolve, downMs));
  try {
    await pgCtlStart(cluster, timeoutMs);
  } catch (error) {
    throw new Error(
      `restarting PostgreSQL: ${messageOf(error)}\nserver log:\n${await readLogTail(cluster)}`,
    );
  }
  return { downAtMs, upAtMs: Date.now() };
}

/** Starts the server on a free port, retrying with another port if one was taken meanwhile. */
async function startOnFreePort(cluster: Cluster, timeoutMs: number): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    await writeSettings(cluster, port);
    try {
      await pgCtlStart(cluster, timeoutMs);
      return port;
    } catch (error) {
      const log = await readLogTail(cluster);
      if (attempt < START_ATTEMPTS_MAX && /could not bind|already in use/i.test(log)) continue;
      throw new Error(`startPostgres: ${messageOf(error)}\nserver log:\n${log}`);
    }
  }
}

async function createDatabase(port: number, database: string, timeoutMs: number): Promise<void> {
  const sql = postgres({
    host: "127.0.0.1",
    port,
    user: "postgres",
    database: "postgres",
    max: 1,
    onnotice: () => {},
  });
  try {
    // pg_ctl -w checks the unix socket; this also proves the TCP listener answers.
    await waitFor(() => sql`select 1 as ok`.then((rows) => rows.length === 1), {
      what: `PostgreSQL on 127.0.0.1:${port} to accept connections`,
      timeoutMs,
      intervalMs: 200,
    });
    await sql.unsafe(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function killNow(cluster: Cluster): void {
  try {
    // SIGQUIT is PostgreSQL's immediate shutdown: the postmaster takes its backends down with it.
    const postmasterPid = Number(
      readFileSync(join(cluster.dataDir, "postmaster.pid"), "utf8").split("\n")[0],
    );
    if (postmasterPid > 0) process.kill(postmasterPid, "SIGQUIT");
  } catch {
    // Not running, or already gone.
  }
  rmSync(cluster.rootDir, { recursive: true, force: true });
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const { database = "llmgw", binDir = DEFAULT_BIN_DIR, startTimeoutMs = 60_000 } = options;
  checkBinaries(binDir);
  const cluster = await createCluster(binDir);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    handle.unregister();
    stopping ??= runPgBinary(cluster, "pg_ctl", ["stop", "-D", cluster.dataDir, "-m", "fast", "-w"])
      .catch(() => killNow(cluster))
      .then(() => rm(cluster.rootDir, { recursive: true, force: true, maxRetries: 3 }));
    return stopping;
  };
  const handle = registerCleanup({
    name: `PostgreSQL in ${cluster.dataDir}`,
    stop,
    killNow: () => killNow(cluster),
  });
  try {
    const port = await startOnFreePort(cluster, startTimeoutMs);
    await createDatabase(port, database, startTimeoutMs);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
      port,
      dataDir: cluster.dataDir,
      restart: (downMs) => restartCluster(cluster, downMs, startTimeoutMs),
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
