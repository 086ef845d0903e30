// Before/after in one process: `node --expose-gc bench/placement/side-by-side.mjs <git-ref> [gpu
// nodes] [rounds]` bundles bench/placement/reconcile-pass.ts twice with esbuild as the release
// does (bundled, no keep-names), once over <git-ref>'s packages/domain and bench/placement and once
// over the working tree's, then alternates their reconcile passes (full, no-change, and full after
// every node's record was remade as heartbeats remake them), round by round, so both see the same
// load. Prints the median process CPU time per pass (it moves far
// less with other work than the wall clock), the median and best wall time, and the load average.
// Not part of the benchmark: a tool for measuring a change on a shared machine. `--mix` (after the
// other arguments) also runs, before every round, what run.ts runs between its 10,000-node full
// passes (the placement passes of every size and the 2,000-node reconcile passes), each module on
// its own fleets: the code then sees every shape the bench shows it, as under run.ts, where a loop
// that had seen lists and Sets alike made a record per node it read.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..", "..");
const isMixed = process.argv.includes("--mix");
const [ref = "HEAD", size = "10000", rounds = "7"] = process.argv
  .slice(2)
  .filter((arg) => arg !== "--mix");
const work = mkdtempSync(join(tmpdir(), "placement-side-by-side-"));
execFileSync("sh", [
  "-c",
  `git -C "${ROOT}" archive "${ref}" packages/domain bench/placement | tar -x -C "${work}"`,
]);

async function bundle(name, root) {
  const entry = join(work, `${name}-entry.ts`);
  const pass = join(root, "bench", "placement", "reconcile-pass.ts");
  writeFileSync(
    entry,
    `export { buildScenario } from ${JSON.stringify(join(root, "bench", "placement", "fleet.ts"))};\n` +
      `export { fullPass, noChangePass, prepareReconcile } from ${JSON.stringify(pass)};\n` +
      `export { prepare, sample, sampleReconcile } from ${JSON.stringify(join(root, "bench", "placement", "measure.ts"))};\n`,
  );
  const outfile = join(work, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    alias: { "@llmgw/domain": join(root, "packages", "domain", "src", "index.ts") },
    nodePaths: [join(ROOT, "packages", "domain", "node_modules"), join(ROOT, "node_modules")],
    tsconfigRaw: {},
    logLevel: "error",
  });
  return import(outfile);
}

const modules = { before: await bundle("before", work), after: await bundle("after", ROOT) };
const prepared = {};
for (const [name, m] of Object.entries(modules)) {
  prepared[name] = m.prepareReconcile(m.buildScenario(Number(size)));
  if (prepared[name].problems.length > 0) throw new Error(`${name}: ${prepared[name].problems}`);
}
/** What run.ts runs between its 10,000-node full passes, for `--mix`, per module. */
const between = {};
for (const [name, m] of Object.entries(modules)) {
  if (!isMixed) break;
  const scenarios = [100, 500, 2_000, 10_000].map((gpuNodes) => m.buildScenario(gpuNodes));
  const placements = scenarios.map((scenario) => m.prepare(scenario));
  const base = m.prepareReconcile(scenarios[2]);
  between[name] = () => {
    for (const each of placements) m.sample(each);
    m.sampleReconcile(base);
  };
}
const samples = {};
/**
 * Every node remade as a new record, as the server's `reconcileNodes` remakes a node whose
 * heartbeat changed its free disk or measured draw: the same fleet in new objects.
 */
function heartbeat(scenario, beat) {
  const nodes = scenario.input.nodes.map(({ node, unreachableSinceMs }) => ({
    node: {
      ...node,
      diskGbFree: node.diskGbFree + (beat % 2) / 1000,
      cards: node.cards.map((card) => ({ ...card })),
    },
    unreachableSinceMs,
  }));
  scenario.input = { ...scenario.input, nodes };
}
let beats = 0;
function pass(name, kind) {
  const m = modules[name];
  const { scenario, settled } = prepared[name];
  if (kind === "full, beat") heartbeat(scenario, (beats += 1));
  globalThis.gc?.({ type: "minor" });
  const cpu = process.cpuUsage();
  const started = performance.now();
  if (kind !== "no-change") m.fullPass(scenario);
  else m.noChangePass(scenario, settled);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  (samples[`${kind} ${name}`] ??= []).push([(used.user + used.system) / 1000, wall]);
}
// "full, beat": a full pass after every node's record was remade, as heartbeats remake them.
const kinds = ["full", "no-change", "full, beat"];
for (const kind of kinds) for (const name of ["before", "after"]) pass(name, kind);
for (const key of Object.keys(samples)) samples[key] = [];
const loadStart = loadavg()[0];
for (let round = 0; round < Number(rounds); round += 1) {
  for (const name of ["before", "after"]) between[name]?.();
  for (const kind of kinds)
    for (const name of round % 2 === 0 ? ["before", "after"] : ["after", "before"])
      pass(name, kind);
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(
  `${size} GPU nodes, ${rounds} rounds${isMixed ? " (mixed)" : ""}, ${ref} (before) vs the working tree (after)`,
);
for (const [key, runs] of Object.entries(samples))
  console.log(
    `${key.padEnd(22)} CPU ms ${median(runs.map((r) => r[0]))
      .toFixed(1)
      .padStart(7)}   wall ms ${median(runs.map((r) => r[1]))
      .toFixed(1)
      .padStart(7)} (best ${Math.min(...runs.map((r) => r[1])).toFixed(1)})`,
  );
for (const [name, { scenario }] of Object.entries(prepared)) {
  const { reused, built, refreshed } = scenario.cache.fleet;
  console.log(
    `${name}: index reused ${reused}, built ${built}, nodes taken in ${refreshed ?? "-"}`,
  );
}
console.log(
  `load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
);
