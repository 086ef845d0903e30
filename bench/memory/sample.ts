// One memory reading of a running server, from outside and from its own /metrics: the process
// group's RSS (the node process and any child it runs, such as tsx's esbuild), the node process's
// RSS, and how V8 splits it (heap in use, heap reserved, external memory: buffers, and PGlite's
// WebAssembly memory, which is an ArrayBuffer), and how much of PGlite's WebAssembly memory is
// resident: V8 counts its whole size as external memory, touched or not.
import { readFileSync } from "node:fs";
import { groupUsage } from "../agents/proc";

export interface MemorySample {
  groupRssBytes: number;
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  /** PGlite's WebAssembly memory: its size (within externalBytes) and its resident part; 0 without. */
  wasmBytes: number;
  wasmResidentBytes: number;
  /** With `--gc`: the node process's RSS just before the forced collection, as the server held it. */
  rssBeforeGcBytes?: number;
}

export function vmRssBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kib === undefined) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(kib) * 1024;
}

const GUARD_KIB_MIN = 4 * 2 ** 20;
/** Smaller read-write mappings before a large reservation are V8's own (seen on PostgreSQL's). */
const WASM_KIB_MIN = 16 * 1024;

/**
 * The process's WebAssembly memories, from /proc/PID/smaps: V8 maps a memory's accessible part as
 * one anonymous read-write mapping followed at once by gigabytes of inaccessible guard region.
 * PGlite's is 128 MiB at least.
 */
function wasmMemory(pid: number): { bytes: number; residentBytes: number } {
  const blocks = readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  const maps = blocks.map((block) => {
    const header = block.split("\n", 1)[0]?.trim().split(/\s+/) ?? [];
    const [start = "", end = ""] = (header[0] ?? "").split("-");
    return {
      start,
      end,
      perms: header[1] ?? "",
      isAnonymous: header.length <= 5,
      sizeKib: Number(/^Size:\s+(\d+)/m.exec(block)?.[1] ?? 0),
      rssKib: Number(/^Rss:\s+(\d+)/m.exec(block)?.[1] ?? 0),
    };
  });
  let bytes = 0;
  let residentBytes = 0;
  maps.forEach((map, at) => {
    const next = maps[at + 1];
    const isGuarded =
      next?.start === map.end && next.perms === "---p" && next.sizeKib >= GUARD_KIB_MIN;
    if (map.perms === "rw-p" && map.isAnonymous && isGuarded && map.sizeKib >= WASM_KIB_MIN) {
      bytes += map.sizeKib * 1024;
      residentBytes += map.rssKib * 1024;
    }
  });
  return { bytes, residentBytes };
}

/**
 * Anonymous resident memory from /proc/PID/smaps, split by where the kernel placed it: V8 reserves
 * its heap's pages at random addresses of its own choosing (low in the address space), while
 * malloc's arenas (jemalloc's), thread stacks and other mmap(NULL) mappings come down from the top
 * (0x7f…). A heuristic, checked at rest: the low part is V8's committed heap to within 2 MiB.
 */
export function anonymousSplit(pid: number | "self"): { v8Kib: number; mmapKib: number } {
  let v8Kib = 0;
  let mmapKib = 0;
  for (const block of readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-)/)) {
    const header = block.split("\n", 1)[0]?.trim().split(/\s+/) ?? [];
    if (header.length > 5) continue;
    const start = Number.parseInt((header[0] ?? "").split("-")[0] ?? "", 16);
    const rssKib = Number(/^Rss:\s+(\d+)/m.exec(block)?.[1] ?? 0);
    if (start < 0x7f00_0000_0000) v8Kib += rssKib;
    else mmapKib += rssKib;
  }
  return { v8Kib, mmapKib };
}
/** The value of an unlabelled series in a Prometheus text exposition. */
function metricValue(text: string, name: string): number {
  const match = new RegExp(`^${name} ([0-9.eE+-]+)$`, "m").exec(text);
  if (!match?.[1]) throw new Error(`/metrics has no ${name}`);
  return Number(match[1]);
}

/**
 * `pid` is the node process serving (for a release, bin/llmgw execs node, so the spawned pid is
 * it); `pgrp` its process group.
 */
export async function sampleMemory(apiUrl: string, pid: number): Promise<MemorySample> {
  const response = await fetch(`${apiUrl}/metrics`);
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const wasm = wasmMemory(pid);
  return {
    groupRssBytes: groupUsage(pid).rssBytes,
    rssBytes: vmRssBytes(pid),
    heapUsedBytes: metricValue(text, "llmgw_process_nodejs_heap_size_used_bytes"),
    heapTotalBytes: metricValue(text, "llmgw_process_nodejs_heap_size_total_bytes"),
    externalBytes: metricValue(text, "llmgw_process_nodejs_external_memory_bytes"),
    wasmBytes: wasm.bytes,
    wasmResidentBytes: wasm.residentBytes,
  };
}
