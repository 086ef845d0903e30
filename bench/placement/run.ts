// The placement benchmark (P6): `tsx placement/run.ts` measures 100, 500 and 2,000 GPU nodes
// side by side, prints a markdown table and writes it to docs/benchmarks.md. `--smoke` runs the
// smallest size a few times for CI: it fails on a wrong answer, never on a slow one.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildScenario } from "./fleet";
import { prepare, sample, summarise, type Sample } from "./measure";
import {
  barsTable,
  placementSection,
  resultsTable,
  withPlacementSection,
  type RunInfo,
} from "./report";

const COMMAND = "node scripts/pnpm.mjs --filter @llmgw/bench exec tsx placement/run.ts";
const DOCS = join(import.meta.dirname, "..", "..", "docs", "benchmarks.md");

const SIZES = [100, 500, 2_000];
const RUNS = 21;
const SMOKE = { sizes: [100], runs: 3 };

function describeMachine(): string {
  const cores = cpus();
  const memoryGib = Math.round(totalmem() / 2 ** 30);
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGib} GiB, Node ${process.version}, load average ${load} at the start`;
}

function main(): number {
  const { values } = parseArgs({
    options: {
      smoke: { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      machine: { type: "string" },
    },
  });
  const sizes = values.smoke ? SMOKE.sizes : SIZES;
  const runs = values.smoke ? SMOKE.runs : RUNS;
  const machine = values.machine ? `${values.machine}; ${describeMachine()}` : describeMachine();
  const info: RunInfo = { command: COMMAND, date: new Date().toISOString().slice(0, 10), machine };
  const prepared = sizes.map((gpuNodes) => prepare(buildScenario(gpuNodes)));
  const samples: Sample[][] = prepared.map(() => []);
  // Round after round over every size, so load from other work on the machine hits them alike.
  for (let round = 0; round < runs; round += 1)
    prepared.forEach((each, at) => samples[at]?.push(sample(each)));
  const measurements = prepared.map((each, at) => summarise(each, samples[at] ?? []));
  const problems = prepared.flatMap((each) =>
    each.problems.map((problem) => `${each.scenario.gpuNodes} nodes: ${problem}`),
  );
  console.log(`${resultsTable(measurements)}\n\n${barsTable(measurements)}`);
  if (problems.length > 0) {
    console.error(`placement bench: wrong answers:\n  ${problems.slice(0, 20).join("\n  ")}`);
    return 1;
  }
  if (!values.smoke && !values["no-write"]) {
    const existing = existsSync(DOCS) ? readFileSync(DOCS, "utf8") : undefined;
    writeFileSync(DOCS, withPlacementSection(existing, placementSection(measurements, info)));
    console.error(`placement bench: wrote ${DOCS}`);
  }
  return 0;
}

process.exitCode = main();
