// Repeats planReconcile at one size, for a profiler: `tsx placement/profile-reconcile.ts 10000 5
// full|none` (a full pass from empty, or the no-change pass over the settled fleet). Not part of
// the benchmark.
import { buildScenario } from "./fleet";
import { fullPass, noChangePass, prepareReconcile } from "./reconcile-pass";

const gpuNodes = Number(process.argv[2] ?? 10_000);
const passes = Number(process.argv[3] ?? 5);
const mode = process.argv[4] === "none" ? "no-change" : "full";
const { scenario, settled, problems } = prepareReconcile(buildScenario(gpuNodes));
if (problems.length > 0) throw new Error(problems.join("; "));
const pass = () => (mode === "full" ? fullPass(scenario) : noChangePass(scenario, settled));
for (let warm = 0; warm < 3; warm += 1) pass();
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (let at = 0; at < passes; at += 1) pass();
const ms = (performance.now() - started) / Math.max(passes, 1);
// CPU time as well: on a shared machine it moves far less with other work than the wall clock.
const cpu = process.cpuUsage(cpuStarted);
const cpuMs = (cpu.user + cpu.system) / 1000 / Math.max(passes, 1);
console.log(
  `${gpuNodes} GPU nodes: ${passes} ${mode} reconcile passes, ${ms.toFixed(2)} ms each (${cpuMs.toFixed(2)} ms CPU)`,
);
