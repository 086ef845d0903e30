// The memory benchmark's section of docs/benchmarks.md: per store, the node process's RSS and how
// V8 splits it at each stage, the minutes' slope, and the P10 bar.
import type { MemorySample } from "./sample";

export interface StoreResult {
  store: "pglite" | "postgres";
  /** What the server's listening line named: jemalloc or system. */
  allocator: string;
  atRest: MemorySample;
  withAgents: MemorySample;
  withKeys: MemorySample;
  minutes: MemorySample[];
  slopeMibPerMin: number;
}

export interface RunInfo {
  command: string;
  date: string;
  machine: string;
  loadAtEnd: string;
  agents: number;
  keys: number;
  minutes: number;
  from: string;
  /** Whether each reading came after a forced full garbage collection. */
  gc: boolean;
  /** Whether the stores ran at the same time, one bench process each, rather than in turn. */
  sideBySide: boolean;
}

const P10_RSS_MIB = 300;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const STORE_NAMES = { pglite: "PGlite (embedded)", postgres: "PostgreSQL 15" };

function row(store: string, stage: string, s: MemorySample): string {
  // Only the resident part of a WebAssembly memory counts against RSS; external counts it all.
  const externalResident = s.externalBytes - s.wasmBytes + s.wasmResidentBytes;
  const other = s.rssBytes - s.heapTotalBytes - externalResident;
  const running = s.rssBeforeGcBytes === undefined ? "–" : mib(s.rssBeforeGcBytes);
  const wasm = s.wasmBytes === 0 ? "–" : `${mib(s.wasmBytes)} / ${mib(s.wasmResidentBytes)}`;
  return `| ${store} | ${stage} | ${running} | ${mib(s.rssBytes)} | ${mib(s.heapUsedBytes)} | ${mib(s.heapTotalBytes)} | ${mib(s.externalBytes)} | ${wasm} | ${mib(other)} | ${mib(s.groupRssBytes)} |`;
}

function stagesTable(results: StoreResult[], info: Pick<RunInfo, "agents" | "keys">) {
  const lines = [
    "| store | stage | RSS MiB as running | RSS MiB | V8 heap used | V8 heap reserved | external (buffers, wasm) | of which wasm: size / resident | rest (code, native, stacks) | process group RSS |",
    "| ----- | ----- | -----------------: | ------: | -----------: | ---------------: | -----------------------: | -----------------------------: | --------------------------: | ----------------: |",
  ];
  for (const r of results) {
    const name = `${STORE_NAMES[r.store]}, ${r.allocator}`;
    lines.push(row(name, "at rest, no nodes", r.atRest));
    lines.push(row(name, `${info.agents.toLocaleString("en")} agents beating`, r.withAgents));
    lines.push(row(name, `+ ${info.keys.toLocaleString("en")} keys used once`, r.withKeys));
    const last = r.minutes.at(-1);
    if (last) lines.push(row(name, `after ${r.minutes.length} min of trickle`, last));
  }
  return lines.join("\n");
}

function barsTable(results: StoreResult[], info: Pick<RunInfo, "agents" | "keys">) {
  const lines = ["| bar (P10) | store | measured | |", "| --------- | ----- | -------- | --- |"];
  for (const r of results) {
    const read = [r.withKeys, ...r.minutes];
    const peak = Math.max(...read.map((m) => m.rssBytes)) / 2 ** 20;
    const running = Math.max(...read.map((m) => m.rssBeforeGcBytes ?? m.rssBytes)) / 2 ** 20;
    const measured =
      running > peak
        ? `${running.toFixed(0)} MiB at most as running, ${peak.toFixed(0)} after forced collections`
        : `${peak.toFixed(0)} MiB at most`;
    lines.push(
      `| RSS ≤ ${P10_RSS_MIB} MiB with ${info.agents.toLocaleString("en")} nodes and ${info.keys.toLocaleString("en")} keys | ${STORE_NAMES[r.store]}, ${r.allocator} | ${measured} | ${running <= P10_RSS_MIB ? "met" : "**not met**"} |`,
    );
    lines.push(
      `| no growth (slope of the minutes) | ${STORE_NAMES[r.store]}, ${r.allocator} | ${r.slopeMibPerMin.toFixed(2)} MiB a minute over ${r.minutes.length} min | ${r.minutes.length >= 30 ? (r.slopeMibPerMin <= 0.5 ? "met" : "**not met**") : "too short to judge (30 min asked)"} |`,
    );
  }
  return lines.join("\n");
}

function commandLine(info: RunInfo): string {
  const args = `--agents ${info.agents} --keys ${info.keys} --minutes ${info.minutes}${info.gc ? " --gc" : ""}`;
  if (!info.sideBySide)
    return `Command: \`${info.command} -- ${args}\` (\`--smoke --no-write\` is the quick check).`;
  return `Commands, at the same time: \`${info.command} -- --stores postgres ${args} --no-write --results A.json\` and the same with \`--stores pglite\` and \`B.json\`; then \`${info.command} -- --combine A.json,B.json\` wrote this section.`;
}

export function memorySection(results: StoreResult[], info: RunInfo): string {
  return [
    "## Server memory at fleet size (P10)",
    "",
    "`bench/memory`: the control plane started from " +
      (info.from === "release"
        ? "a release (`scripts/release.mjs`, one esbuild bundle run by node)"
        : "the checkout (TypeScript compiled at start by tsx)") +
      (info.sideBySide
        ? ", on both stores at the same time, each in a bench process of its own (the two shared the machine's cores). Readings:"
        : ", on each store in turn. Readings:") +
      " at rest with no nodes; with the bench's simulated agents " +
      "joined through the join route and heartbeating every 2 s (as in the agents bench); after " +
      "that many API keys were made and each used once on `/v1/models`; then once a minute while " +
      "the agents beat and a trickle of requests uses random keys. RSS is the node process's " +
      "(`VmRSS`); V8's split comes from the server's own `/metrics`; _external_ holds Buffers and " +
      "PGlite's WebAssembly memory (an ArrayBuffer), counted at its full size although only the " +
      "pages PostgreSQL touched are resident (the next column, from `/proc/PID/smaps`); _rest_ " +
      "is RSS less V8's reserved heap and the resident part of external memory: compiled code, " +
      "native allocations and thread stacks. " +
      (info.gc
        ? "Each reading came after a full garbage collection forced through the server's inspector (`--gc`); _as running_ is the RSS read just before it, with the garbage V8 had not collected yet: what the server holds without the bench's nudge, and what the bar is judged on."
        : "The readings were taken without forcing a garbage collection, so V8's heap holds garbage not yet collected."),
    "",
    stagesTable(results, info),
    "",
    barsTable(results, info),
    "",
    `Run ${info.date} on ${info.machine}; ${info.loadAtEnd} at the end.`,
    commandLine(info),
  ].join("\n");
}
