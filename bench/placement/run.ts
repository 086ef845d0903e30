// The placement benchmark (P6): `tsx placement/run.ts` measures 100, 500 and 2,000 GPU nodes
// side by side, then the largest with its placements written to PGlite and PostgreSQL, prints
// markdown tables and writes them to docs/benchmarks.md. `--smoke` runs the smallest size a few
// times (and writes it to PGlite once) for CI: it fails on a wrong answer, never on a slow one.
import { withBenchSection } from "../section";
import { messageOf } from "@llmgw/domain";
import { openStore, type Store } from "@llmgw/db";
import { cleanupAll, startPostgres, tempDir } from "@llmgw/testing";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildScenario } from "./fleet";
import {
  prepare,
  sample,
  sampleReconcile,
  summarise,
  summariseReconcile,
  type Sample,
} from "./measure";
import { prepareReconcile, type ReconcileSample } from "./reconcile-pass";
import {
  prepareServerNodes,
  sampleServerNodes,
  summariseServerNodes,
  type ServerNodesSample,
} from "./server-nodes";
import { matchPostgresPriority } from "./postgres-priority";
import { measurePersisted, type PersistMeasurement, type WriteMode } from "./persist";
import {
  barsTable,
  persistTable,
  placementSection,
  reconcileTable,
  resultsTable,
  serverNodesTable,
  type RunInfo,
} from "./report";

const COMMAND = "node scripts/pnpm.mjs --filter @llmgw/bench exec tsx placement/run.ts";
const DOCS = join(import.meta.dirname, "..", "..", "docs", "benchmarks.md");

const SIZES = [100, 500, 2_000, 10_000];
/** The size the scaling bar compares the largest with (P6: the 10,000-node pass ≤ 6 × this one). */
const RATIO_BASE_NODES = 2_000;
const RUNS = 21;
/** Sizes the whole planner runs at, quotas on: the two the P6 bars compare. */
const RECONCILE_SIZES = [RATIO_BASE_NODES, 10_000];
const SMOKE = {
  sizes: [100],
  reconcileSizes: [100],
  runs: 3,
  writeModes: ["model"] as WriteMode[],
};
/**
 * Runs of each store and write mode: each writes thousands of rows, so the spread is small; the
 * old way, a write per replica, is slow enough on a loaded machine that one run says enough.
 */
const PERSIST_RUNS: Record<WriteMode, number> = { pass: 3, model: 3, replica: 1 };
/**
 * The reconciler's way (one pass, one write) is measured at the largest size, where the bar is
 * read; the two older ways at 2,000 nodes, where they were measured when they were the code, as a
 * record of what batching bought (at 10,000 nodes a pass per model re-indexes the fleet 2,000 times).
 */
const WRITE_MODES: { mode: WriteMode; size: "largest" | "base" }[] = [
  { mode: "pass", size: "largest" },
  { mode: "model", size: "base" },
  { mode: "replica", size: "base" },
];

function describeMachine(): string {
  const cores = cpus();
  const memoryGib = Math.round(totalmem() / 2 ** 30);
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGib} GiB, Node ${process.version}, load average ${load} at the start`;
}

/** A fresh store of each kind; PostgreSQL only where its binaries are installed. */
async function* stores(withPostgres: boolean): AsyncGenerator<{ name: string; store: Store }> {
  const dir = await tempDir("bench-placement");
  const pglite = await openStore({ kind: "pglite", dataDir: dir.path });
  try {
    yield { name: "PGlite", store: pglite };
  } finally {
    await pglite.close();
    await dir.remove();
  }
  if (!withPostgres) return;
  let server: Awaited<ReturnType<typeof startPostgres>>;
  try {
    server = await startPostgres();
  } catch (error) {
    console.error(`placement bench: no PostgreSQL (${messageOf(error)}); PGlite only`);
    return;
  }
  console.error(`placement bench: ${matchPostgresPriority(server.dataDir)}`);
  const postgres = await openStore({ kind: "postgres", url: server.url });
  try {
    yield { name: "PostgreSQL 15", store: postgres };
  } finally {
    await postgres.close();
    await server.stop();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      smoke: { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      "no-postgres": { type: "boolean", default: false },
      machine: { type: "string" },
    },
  });
  const sizes = values.smoke ? SMOKE.sizes : SIZES;
  const runs = values.smoke ? SMOKE.runs : RUNS;
  const machine = values.machine ? `${values.machine}; ${describeMachine()}` : describeMachine();
  const info: RunInfo = { command: COMMAND, date: new Date().toISOString().slice(0, 10), machine };
  const prepared = sizes.map((gpuNodes) => prepare(buildScenario(gpuNodes)));
  const reconcileSizes = values.smoke ? SMOKE.reconcileSizes : RECONCILE_SIZES;
  const reconciles = prepared
    .filter((each) => reconcileSizes.includes(each.scenario.gpuNodes))
    .map((each) => prepareReconcile(each.scenario));
  const samples: Sample[][] = prepared.map(() => []);
  const reconcileSamples: ReconcileSample[][] = reconciles.map(() => []);
  // The server's work before planning, at the largest size only (where the bars are read).
  const servers = prepared
    .filter((each) => each.scenario.gpuNodes === reconcileSizes[reconcileSizes.length - 1])
    .map((each) => prepareServerNodes(each.scenario));
  const serverSamples: ServerNodesSample[][] = servers.map(() => []);
  // Round after round over every size, so load from other work on the machine hits them alike.
  for (let round = 0; round < runs; round += 1) {
    prepared.forEach((each, at) => samples[at]?.push(sample(each)));
    reconciles.forEach((each, at) => reconcileSamples[at]?.push(sampleReconcile(each)));
    servers.forEach((each, at) => serverSamples[at]?.push(sampleServerNodes(each)));
  }
  const measurements = prepared.map((each, at) => summarise(each, samples[at] ?? []));
  const reconciled = reconciles.map((each, at) =>
    summariseReconcile(each, reconcileSamples[at] ?? []),
  );
  const server = servers.map((each, at) => summariseServerNodes(each, serverSamples[at] ?? []));
  const problems = [...prepared, ...reconciles].flatMap((each) =>
    each.problems.map((problem) => `${each.scenario.gpuNodes} nodes: ${problem}`),
  );
  for (const each of servers)
    problems.push(...each.problems.map((problem) => `${each.gpuNodes} nodes: ${problem}`));
  const largest = prepared[prepared.length - 1]?.scenario;
  const base = prepared.find((each) => each.scenario.gpuNodes === RATIO_BASE_NODES)?.scenario;
  const writes = values.smoke
    ? SMOKE.writeModes.map((mode) => ({ mode, size: "largest" as const }))
    : WRITE_MODES;
  const persisted: PersistMeasurement[] = [];
  for await (const { name, store } of stores(!values.smoke && !values["no-postgres"]))
    for (const { mode, size } of writes) {
      const scenario = size === "largest" ? largest : base;
      if (!scenario) continue;
      const runs = values.smoke ? 1 : PERSIST_RUNS[mode];
      const result = await measurePersisted(name, store, scenario, mode, runs);
      persisted.push(result.measurement);
      problems.push(...result.problems);
    }
  console.log(
    [
      resultsTable(measurements),
      reconcileTable(reconciled),
      serverNodesTable(server),
      barsTable(reconciled, persisted),
      persistTable(persisted),
    ]
      .filter((table) => table !== "")
      .join("\n\n"),
  );
  if (problems.length > 0) {
    console.error(`placement bench: wrong answers:\n  ${problems.slice(0, 20).join("\n  ")}`);
    return 1;
  }
  if (!values.smoke && !values["no-write"]) {
    const existing = existsSync(DOCS) ? readFileSync(DOCS, "utf8") : undefined;
    // The load at the end beside the one at the start: on a shared machine, how busy it was.
    const end = loadavg()[0]?.toFixed(1) ?? "?";
    const machine = `${info.machine} and ${end} at the end`;
    const section = placementSection(
      { measurements, reconciled, server, persisted },
      { ...info, machine },
    );
    writeFileSync(DOCS, await withBenchSection("placement", existing, section));
    console.error(`placement bench: wrote ${DOCS}`);
  }
  return 0;
}

process.exitCode = await main().finally(cleanupAll);
