// The release benchmark: builds a release (`scripts/release.mjs`) into a temp folder, unpacks it,
// and starts the control plane from it and from the checkout (tsx) alternately, `--runs` times each
// (default 5): spawn to the first 200 from /healthz, and the node process's RSS then. Prints a
// markdown table and writes it to docs/benchmarks.md. `--smoke` starts each once: it fails when
// either does not start or reports no memory, never on timings.
import { withBenchSection } from "../section";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  ADMIN_PASSWORD,
  cleanupAll,
  freePort,
  spawnProcess,
  tempDir,
  waitFor,
} from "@llmgw/testing";
import { buildRelease, checkoutVersion } from "./build";
import { releaseSection, resultsTable, type StartSample } from "./report";

const COMMAND = "npm run bench:release";
const ROOT = join(import.meta.dirname, "..", "..");
const DOCS = join(ROOT, "docs", "benchmarks.md");
const START_TIMEOUT_MS = 180_000;

interface Target {
  name: "release" | "checkout";
  command: string;
  prefixArgs: string[];
  homeDir: string;
}

function describeMachine(): string {
  const cores = cpus();
  const memoryGib = Math.round(totalmem() / 2 ** 30);
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGib} GiB, Node ${process.version}, load average ${load} at the start`;
}

function rssBytesOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(kib) * 1024;
}

/** One start of the server from `target`, stopped again once measured. */
async function startOnce(target: Target): Promise<StartSample> {
  const httpPort = await freePort();
  const startedMs = performance.now();
  const server = spawnProcess(target.command, [...target.prefixArgs, "server"], {
    name: `${target.name} server`,
    env: {
      LLMGW_HOME: target.homeDir,
      LLMGW_PORT: String(httpPort),
      LLMGW_AGENT_PORT: String(await freePort()),
      LLMGW_AGENT_BIND: "127.0.0.1",
      LLMGW_ADMIN_PASSWORD: ADMIN_PASSWORD,
    },
  });
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${httpPort}/healthz`)).ok, {
      what: `the ${target.name}'s server /healthz`,
      timeoutMs: START_TIMEOUT_MS,
      intervalMs: 10,
    });
    const startMs = performance.now() - startedMs;
    return { startMs, rssBytes: rssBytesOf(server.pid) };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      smoke: { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
    },
  });
  const runs = values.smoke ? 1 : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1`);
  const machine = describeMachine();
  const version = checkoutVersion();
  const built = await buildRelease(version);
  const targets: Target[] = [
    {
      name: "release",
      command: join(built.releaseDir, "bin", "llmgw"),
      prefixArgs: [],
      homeDir: (await tempDir("bench-release-home")).path,
    },
    {
      name: "checkout",
      command: process.execPath,
      prefixArgs: [join(ROOT, "packages", "cli", "bin", "llmgw.mjs")],
      homeDir: (await tempDir("bench-checkout-home")).path,
    },
  ];
  // Untimed: makes each PGlite home and runs the migrations, so every timed start is a restart.
  for (const target of targets) await startOnce(target);
  const measured = { release: [] as StartSample[], checkout: [] as StartSample[] };
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) measured[target.name].push(await startOnce(target));
  }
  console.log(resultsTable(measured));
  const samples = [...measured.release, ...measured.checkout];
  if (samples.some((s) => !(s.startMs > 0) || !(s.rssBytes > 0))) {
    console.error("release bench: a start reported no time or no memory");
    return 1;
  }
  if (!values.smoke && !values["no-write"]) {
    const info = {
      command: COMMAND,
      date: new Date().toISOString().slice(0, 10),
      machine,
      version,
    };
    const existing = existsSync(DOCS) ? readFileSync(DOCS, "utf8") : undefined;
    writeFileSync(
      DOCS,
      await withBenchSection("release", existing, releaseSection(measured, { ...info, ...built })),
    );
    console.error(`release bench: wrote ${DOCS}`);
  }
  return 0;
}

try {
  process.exitCode = await main();
} finally {
  await cleanupAll();
}
