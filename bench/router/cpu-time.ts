// A process's CPU time (user and system, all its threads) from /proc, to charge a run under load
// the CPU its target spent per answer. Linux only; elsewhere the figure is left out.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    } catch {
      ticksPerSecond = 100;
    }
    if (!Number.isFinite(ticksPerSecond) || ticksPerSecond <= 0) ticksPerSecond = 100;
  }
  return ticksPerSecond;
}

/** Milliseconds of CPU `pid` has used so far, or null where /proc cannot tell. */
export function cpuTimeMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: the fields after it start past its ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return ((utime + stime) * 1000) / clockTicks();
  } catch {
    return null;
  }
}

/**
 * Nanoseconds the main thread of `pid` has run on a CPU and waited for one so far (the kernel's
 * schedstat), or null where /proc cannot tell. Over a run, wall time less both is the time the
 * thread slept: an event loop waiting on its sockets and timers, with nothing to do.
 */
export function mainThreadNs(pid: number | undefined): { runNs: number; waitNs: number } | null {
  if (pid === undefined) return null;
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ");
    const runNs = Number(run);
    const waitNs = Number(wait);
    return Number.isFinite(runNs) && Number.isFinite(waitNs) ? { runNs, waitNs } : null;
  } catch {
    return null;
  }
}
