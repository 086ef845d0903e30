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

/**
 * The kernel's count of connections dropped from a full listen queue (TcpExtListenOverflows in
 * /proc/net/netstat), for the whole network namespace: the difference across a phase says whether
 * its dials waited for a SYN resent after 1, 3, 7 or 15 s. Undefined where the file cannot be read.
 */
function listenOverflows(): number | undefined {
  try {
    const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
    const at = lines.findIndex((line) => line.startsWith("TcpExt:"));
    const names = lines[at]?.split(" ") ?? [];
    const values = lines[at + 1]?.split(" ") ?? [];
    const value = values[names.indexOf("ListenOverflows")];
    return value === undefined ? undefined : Number(value);
  } catch {
    return undefined;
  }
}

/** How many connections the kernel dropped from full listen queues since the call (the namespace's). */
export function overflowsSince(): () => string {
  const before = listenOverflows();
  return () => {
    const after = listenOverflows();
    return before === undefined || after === undefined ? "unknown" : String(after - before);
  };
}
