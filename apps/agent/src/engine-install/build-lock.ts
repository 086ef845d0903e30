// One build per engine directory at a time: two agents on one machine (or an agent and the build
// script) share the cache, and two CMake runs in one build tree corrupt it. The lock is a directory
// holding the owner's pid; a lock whose owner is gone is taken over.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

const LOCK_POLL_MS = 2_000;

export async function withBuildLock<T>(
  lockDir: string,
  onWait: (line: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  await acquire(lockDir, onWait);
  try {
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function acquire(lockDir: string, onWait: (line: string) => void): Promise<void> {
  let hasSaid = false;
  for (;;) {
    try {
      await mkdir(lockDir);
      await writeFile(path.join(lockDir, "pid"), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = await ownerPid(lockDir);
    if (owner !== undefined && !isAlive(owner)) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    if (!hasSaid) onWait(`waiting for the build another process (pid ${owner ?? "?"}) is running`);
    hasSaid = true;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

async function ownerPid(lockDir: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(path.join(lockDir, "pid"), "utf8")).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    // Created but its pid not yet written: the owner is alive and writing it.
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
