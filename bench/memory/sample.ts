// One memory reading of a running server, from outside and from its own /metrics: the process
// group's RSS (the node process and any child it runs, such as tsx's esbuild), the node process's
// RSS, and how V8 splits it (heap in use, heap reserved, external memory: buffers, and PGlite's
// WebAssembly memory, which is an ArrayBuffer).
import { readFileSync } from "node:fs";
import { groupUsage } from "../agents/proc";

export interface MemorySample {
  groupRssBytes: number;
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  /** With `--gc`: the node process's RSS just before the forced collection, as the server held it. */
  rssBeforeGcBytes?: number;
}

export function vmRssBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kib === undefined) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(kib) * 1024;
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
  return {
    groupRssBytes: groupUsage(pid).rssBytes,
    rssBytes: vmRssBytes(pid),
    heapUsedBytes: metricValue(text, "llmgw_process_nodejs_heap_size_used_bytes"),
    heapTotalBytes: metricValue(text, "llmgw_process_nodejs_heap_size_total_bytes"),
    externalBytes: metricValue(text, "llmgw_process_nodejs_external_memory_bytes"),
  };
}
