// PGlite is PostgreSQL compiled to WebAssembly inside one process: two processes opening one data
// directory each keep their own copy of the database in memory and write over each other's files
// (its postmaster.pid is a constant, so PostgreSQL's own guard does nothing). This lock file makes
// the second opener refuse. It names the holder's process id and that process's start time, so a
// lock left by a process that was killed (kill -9, power cut) is recognised as stale and taken
// over at once instead of blocking the restart.
import { readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

const LOCK_FILE = "llmgw.pid";
const TAKE_ATTEMPTS = 3;
/** How long an unreadable lock file counts as one being written rather than as debris. */
const HALF_WRITTEN_MS = 5_000;

export class StoreInUseError extends Error {
  override readonly name = "StoreInUseError";
}

interface Holder {
  pid: number;
  host: string;
  /** The process's start time in clock ticks since boot (Linux /proc), so a reused pid is told apart. */
  startTicks: string | null;
  startedAt: string;
}

export interface PgliteLock {
  release(): void;
}

/** Takes `<dataDir>/llmgw.pid`, or throws StoreInUseError naming the process that holds it. */
export function lockPgliteDir(dataDir: string, pid = process.pid): PgliteLock {
  const path = join(dataDir, LOCK_FILE);
  const mine: Holder = {
    ...{ pid, host: hostname(), startTicks: processStartTicks(pid) },
    startedAt: new Date().toISOString(),
  };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt += 1) {
    try {
      writeFileSync(path, text, { flag: "wx", mode: 0o600 });
      return { release: () => releaseIfMine(path, text) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const held = readFileOrNull(path);
    if (held === null) continue;
    const holder = parseHolder(held);
    if (holder && isAlive(holder)) throw inUse(dataDir, path, holder);
    // An empty or torn file may be one another process is writing this instant.
    if (!holder && Date.now() - mtimeMs(path) < HALF_WRITTEN_MS)
      throw new StoreInUseError(`${path} is being taken by another process just now`);
    // A dead holder's lock: removed only if it is still the one judged dead just now.
    if (readFileOrNull(path) === held) unlinkSync(path);
  }
  throw new StoreInUseError(`${path} could not be taken: another process keeps taking it`);
}

function inUse(dataDir: string, path: string, holder: Holder): StoreInUseError {
  const who =
    holder.host === hostname()
      ? `process ${holder.pid}`
      : `process ${holder.pid} on ${holder.host} (remove ${path} if that process is gone)`;
  return new StoreInUseError(
    `the PGlite store in ${dataDir} is in use by ${who}, running since ${holder.startedAt}: ` +
      "PGlite holds one control plane; to run several, move the store to PostgreSQL with " +
      "`llmgw server migrate-store --home DIR --to postgres://…` and make the others with `llmgw server add`",
  );
}

function isAlive(holder: Holder): boolean {
  // Another machine's process cannot be checked from here: it counts as alive.
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const ticks = processStartTicks(holder.pid);
  return holder.startTicks === null || ticks === null || ticks === holder.startTicks;
}

/** Field 22 of /proc/PID/stat (start time); null where /proc is not there. */
function processStartTicks(pid: number): string | null {
  const stat = readFileOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name (field 2) may hold spaces and parentheses; fields after it start at state.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[22 - 3] ?? null;
}

function parseHolder(text: string): Holder | null {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.pid !== "number" || typeof value.host !== "string") return null;
    return {
      ...{ pid: value.pid, host: value.host, startTicks: value.startTicks ?? null },
      startedAt: value.startedAt ?? "an unknown time",
    };
  } catch {
    return null;
  }
}

function releaseIfMine(path: string, text: string): void {
  if (readFileOrNull(path) === text) unlinkSync(path);
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function readFileOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
