// Repeats the full pass at one size, for a profiler (`node --cpu-prof`) or an instruction counter
// (valgrind --tool=callgrind): `tsx placement/profile.ts 2000 20`. Not part of the benchmark.
import { placeReplicas } from "@llmgw/domain";
import { buildScenario } from "./fleet";

const gpuNodes = Number(process.argv[2] ?? 2_000);
const passes = Number(process.argv[3] ?? 20);
const { nodes, requests } = buildScenario(gpuNodes);
// Warm-up, so the compiler has settled before the passes counted.
for (let pass = 0; pass < 3; pass += 1) placeReplicas({ nodes, replicas: [] }, requests);
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (let pass = 0; pass < passes; pass += 1) placeReplicas({ nodes, replicas: [] }, requests);
const ms = (performance.now() - started) / Math.max(passes, 1);
// CPU time as well: on a shared machine it moves far less with other work than the wall clock.
const cpu = process.cpuUsage(cpuStarted);
const cpuMs = (cpu.user + cpu.system) / 1000 / Math.max(passes, 1);
console.log(
  `${gpuNodes} GPU nodes: ${passes} full passes, ${ms.toFixed(2)} ms each (${cpuMs.toFixed(2)} ms CPU)`,
);
