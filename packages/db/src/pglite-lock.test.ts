import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lockPgliteDir, StoreInUseError } from "./pglite-lock";

const dir = () => mkdtempSync(join(tmpdir(), "pglite-lock-"));
const lockOf = (dataDir: string) => join(dataDir, "llmgw.pid");
const holderOf = (dataDir: string) =>
  JSON.parse(readFileSync(lockOf(dataDir), "utf8")) as { pid: number };

/** A process id that was alive a moment ago and is not now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("the PGlite directory lock", () => {
  it("refuses a second opener while the first holds it, saying to move to PostgreSQL", () => {
    const dataDir = dir();
    const first = lockPgliteDir(dataDir);
    expect(() => lockPgliteDir(dataDir, 999_999)).toThrow(StoreInUseError);
    expect(() => lockPgliteDir(dataDir, 999_999)).toThrow(
      new RegExp(
        `in use by process ${process.pid}.*PGlite holds one control plane.*llmgw server migrate-store`,
      ),
    );
    first.release();
    expect(existsSync(lockOf(dataDir))).toBe(false);
    lockPgliteDir(dataDir, 999_999).release();
  });

  it("takes over the lock of a process that died without releasing it (kill -9)", () => {
    const dataDir = dir();
    const stale = { pid: deadPid(), host: hostname(), startTicks: null, startedAt: "then" };
    writeFileSync(lockOf(dataDir), JSON.stringify(stale));
    const lock = lockPgliteDir(dataDir);
    expect(holderOf(dataDir).pid).toBe(process.pid);
    lock.release();
  });

  it("tells a reused process id from the holder by its start time", () => {
    const dataDir = dir();
    const reused = { pid: process.pid, host: hostname(), startTicks: "1", startedAt: "boot" };
    writeFileSync(lockOf(dataDir), JSON.stringify(reused));
    lockPgliteDir(dataDir, 4242).release();
  });

  it("leaves another machine's lock alone and says how to clear it", () => {
    const dataDir = dir();
    const remote = { pid: 12, host: "elsewhere", startTicks: null, startedAt: "then" };
    writeFileSync(lockOf(dataDir), JSON.stringify(remote));
    expect(() => lockPgliteDir(dataDir)).toThrow(/process 12 on elsewhere \(remove .*llmgw\.pid/);
  });

  it("waits out a lock file being written, and clears an old unreadable one", () => {
    const dataDir = dir();
    writeFileSync(lockOf(dataDir), "");
    expect(() => lockPgliteDir(dataDir)).toThrow(/being taken by another process/);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lockOf(dataDir), minuteAgo, minuteAgo);
    lockPgliteDir(dataDir).release();
  });

  it("does not remove a lock it no longer holds", () => {
    const dataDir = dir();
    const lock = lockPgliteDir(dataDir);
    const other = { pid: 7, host: "elsewhere", startTicks: null, startedAt: "now" };
    writeFileSync(lockOf(dataDir), JSON.stringify(other));
    lock.release();
    expect(holderOf(dataDir).pid).toBe(7);
  });
});
