// Process-group inspection through /proc. Once a group leader has exited, its orphans are adopted
// by PID 1, which in these sandboxes does not reap, so a zombie must count as gone or a stop would
// wait forever for a process that is already dead.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

interface ProcStat {
  pid: number;
  state: string;
  processGroupId: number;
}

function readStat(pid: string): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may contain spaces; fields resume after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid: Number(pid), state: fields[0] ?? "", processGroupId: Number(fields[2]) };
  } catch {
    return undefined; // The process exited between readdir and read.
  }
}

/** Whether the process exists and is not a zombie (which PID 1 here may never reap). */
export function isProcessAlive(pid: number): boolean {
  const stat = readStat(String(pid));
  return stat !== undefined && stat.state !== "Z";
}

/** Pids of the living (not zombie) members of a process group. */
export function livingGroupMembers(processGroupId: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat && stat.processGroupId === processGroupId && stat.state !== "Z")
      members.push(stat.pid);
  }
  return members;
}

/** Sends a signal to a whole group; false when the group no longer exists. */
export function signalGroup(processGroupId: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-processGroupId, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/**
 * Reads `/proc/PID/autogroup`. A process in the root task group (one that never started a session
 * of its own, such as a container's first process and what it starts) reads as an empty file; that
 * group weighs as nice 0 and cannot be reniced, so it reads as 0 here.
 */
export function parseAutogroupNice(text: string): number | undefined {
  if (text.trim() === "") return 0;
  const match = /nice (-?\d+)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/**
 * The nice value of the autogroup `pid` runs in (/proc/PID/autogroup, "/autogroup-N nice V");
 * undefined where the kernel keeps no autogroups or the process is gone.
 */
export function autogroupNice(pid: number | "self"): number | undefined {
  try {
    return parseAutogroupNice(readFileSync(`/proc/${pid}/autogroup`, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Sets the nice value of `pid`'s autogroup; answers why not where the kernel refuses (a value
 * below 0 needs CAP_SYS_NICE, and without CAP_SYS_ADMIN one change per 100 ms is allowed).
 */
export function setAutogroupNice(pid: number, nice: number): string | undefined {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}
