// CPU time and resident memory of a process and everything in its process group, read from /proc:
// the server is measured from outside, so the harness's own work never counts against it.
import { readdirSync, readFileSync } from "node:fs";

/** Linux reports utime and stime in clock ticks; USER_HZ is 100 on every mainstream kernel. */
const TICKS_PER_S = 100;
const PAGE_BYTES = 4096;

interface Stat {
  pgrp: number;
  cpuMs: number;
  rssBytes: number;
}

/** Fields after the command name, which sits in parentheses and may hold spaces. */
function parseStat(text: string): Stat {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // After ")": state(0) ppid(1) pgrp(2) … utime(11) stime(12) … rss(21).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return {
    pgrp: Number(fields[2]),
    cpuMs: (ticks * 1000) / TICKS_PER_S,
    rssBytes: Number(fields[21]) * PAGE_BYTES,
  };
}

function readStat(pid: string): Stat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** CPU milliseconds of one process (all its threads) so far; undefined once it is gone. */
export function processCpuMs(pid: number): number | undefined {
  return readStat(String(pid))?.cpuMs;
}

/** CPU milliseconds and RSS bytes summed over the live members of `pgrp`. */
export function groupUsage(pgrp: number): { cpuMs: number; rssBytes: number } {
  let cpuMs = 0;
  let rssBytes = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = readStat(pid);
    if (stat?.pgrp !== pgrp) continue;
    cpuMs += stat.cpuMs;
    rssBytes += stat.rssBytes;
  }
  return { cpuMs, rssBytes };
}

/** TcpExt counters that say where a connection can wait or be dropped before the server accepts it. */
const QUEUE_COUNTERS = [
  "ListenDrops",
  "TCPReqQFullDoCookies",
  "TCPReqQFullDrop",
  "SyncookiesSent",
  "SyncookiesRecv",
  "TCPBacklogDrop",
] as const;

/** The namespace's TcpExt counters from /proc/net/netstat; empty where the file cannot be read. */
function tcpExt(): Map<string, number> {
  try {
    const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
    const at = lines.findIndex((line) => line.startsWith("TcpExt:"));
    const names = lines[at]?.split(" ") ?? [];
    const values = lines[at + 1]?.split(" ") ?? [];
    return new Map(names.slice(1).map((name, index) => [name, Number(values[index + 1])]));
  } catch {
    return new Map();
  }
}

/**
 * The kernel's count of connections dropped from full listen queues since the call (the namespace's
 * TcpExtListenOverflows difference: a SYN dropped from a full queue is sent again only after 1, 3,
 * 7 or 15 s), followed by any other of QUEUE_COUNTERS that moved (SYN queue full, cookies sent).
 */
export function overflowsSince(): () => string {
  const before = tcpExt();
  return () => {
    const after = tcpExt();
    const since = (name: string) => {
      const [was, is] = [before.get(name), after.get(name)];
      return was === undefined || is === undefined ? undefined : is - was;
    };
    const overflows = since("ListenOverflows");
    const moved = QUEUE_COUNTERS.flatMap((name) => {
      const count = since(name);
      return count ? [`${name} ${count}`] : [];
    });
    return (
      (overflows === undefined ? "unknown" : String(overflows)) +
      (moved.length > 0 ? ` (${moved.join(", ")})` : "")
    );
  };
}

/**
 * How long the main thread of `pid` has run on a core and waited in a run queue for one, in ms
 * (/proc/PID/schedstat: both in ns, then the count of slices). A thread that waits while it is
 * runnable is starved of CPU by the rest of the machine, not held by its own work.
 */
export function mainThreadSchedMs(pid: number): { runMs: number; waitMs: number } | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return run === undefined || wait === undefined
      ? undefined
      : { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return undefined;
  }
}
