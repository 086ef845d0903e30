// Where a full reconcile pass at 10,000 nodes spends the time the median has over the best run:
// the same rounds as run.ts (every size's placement passes, both reconcile sizes, the server's
// node records), with every 10,000-node full pass printed with its wall and process CPU time, the
// collections that started inside it and whether a full collection ran since the pass before.
// Not part of the benchmark: `tsx placement/gc-probe.ts [rounds] [--reconcile-only] [--no-base]
// [--no-no-change] [--no-server]` from bench/ (add `--trace-gc` before the file for V8's own
// lines, the probe's "pass N" lines falling between them; `--max-semi-space-size=128
// --min-semi-space-size=128` keeps collections out of the passes, so "heap grown" is what a pass
// allocated).
import { PerformanceObserver, constants } from "node:perf_hooks";
import { loadavg } from "node:os";
import { buildScenario, type Scenario } from "./fleet";
import { median, prepare, sample, sampleReconcile, timeMs } from "./measure";
import { fullPass, noChangePass, prepareReconcile, type ReconcilePrepared } from "./reconcile-pass";
import { prepareServerNodes, sampleServerNodes } from "./server-nodes";

interface Collection {
  startMs: number;
  durationMs: number;
  isMajor: boolean;
}

interface Pass {
  wallMs: number;
  cpuMs: number;
  /** What the pass allocated, where no collection ran inside it (less what one freed, if one did). */
  grownMb: number;
  startMs: number;
  endMs: number;
}

const collections: Collection[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { kind } = (entry as { detail?: unknown }).detail as { kind: number };
    collections.push({
      startMs: entry.startTime,
      durationMs: entry.duration,
      isMajor: kind === constants.NODE_PERFORMANCE_GC_MAJOR,
    });
  }
}).observe({ entryTypes: ["gc"] });

/** The full pass as run.ts times it (timeMs settles the young generation first), with its CPU. */
function timedFullPass(reconcile: ReconcilePrepared): Pass {
  let cpuMs = 0;
  let grownMb = 0;
  const wallMs = timeMs(() => {
    const heapBefore = process.memoryUsage().heapUsed;
    const cpu = process.cpuUsage();
    fullPass(reconcile.scenario);
    const used = process.cpuUsage(cpu);
    cpuMs = (used.user + used.system) / 1_000;
    grownMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  });
  const endMs = performance.now();
  return { wallMs, cpuMs, grownMb, startMs: endMs - wallMs, endMs };
}

function describe(pass: Pass, previousEndMs: number): string {
  const inside = collections.filter((c) => c.startMs >= pass.startMs && c.startMs < pass.endMs);
  const majorBefore = collections.some(
    (c) => c.isMajor && c.startMs >= previousEndMs && c.startMs < pass.startMs,
  );
  const gcMs = inside.reduce((sum, c) => sum + c.durationMs, 0);
  return `wall ${pass.wallMs.toFixed(1)} ms, CPU ${pass.cpuMs.toFixed(1)} ms, heap grown ${pass.grownMb.toFixed(1)} MB, ${inside.length} collections inside (${gcMs.toFixed(1)} ms)${majorBefore ? ", after a full collection" : ""}`;
}

const rounds = Number(process.argv[2] ?? 21);
// Without the placement-only passes (placeReplicas at every size): whether they change the
// reconcile pass by running the same search code on other shapes.
const isReconcileOnly = process.argv.includes("--reconcile-only");
// Without the 2,000-node reconcile passes, the no-change pass or the server's node records between
// the timed passes.
const withoutBase = process.argv.includes("--no-base");
const withoutNoChange = process.argv.includes("--no-no-change");
const withoutServer = process.argv.includes("--no-server");
const loadStart = loadavg()[0] ?? 0;
const scenarios = [100, 500, 2_000, 10_000].map((gpuNodes) => buildScenario(gpuNodes));
const prepared = scenarios.map((scenario) => prepare(scenario));
const [, , baseScenario, largestScenario] = scenarios as [unknown, unknown, Scenario, Scenario];
const base = prepareReconcile(baseScenario);
const largest = prepareReconcile(largestScenario);
const server = prepareServerNodes(largestScenario);
const passes: Pass[] = [];
for (let round = 0; round < rounds; round += 1) {
  if (!isReconcileOnly) for (const each of prepared) sample(each);
  if (!withoutBase) sampleReconcile(base);
  // sampleReconcile(largest), its full pass taken apart.
  const pass = timedFullPass(largest);
  if (!withoutNoChange) timeMs(() => noChangePass(largest.scenario, largest.settled));
  if (!withoutServer) sampleServerNodes(server);
  passes.push(pass);
}
// The observer reports after the fact: let it catch up before the passes are described.
await new Promise((resolve) => setTimeout(resolve, 100));
passes.forEach((pass, at) =>
  console.log(`pass ${at}: ${describe(pass, passes[at - 1]?.endMs ?? 0)}`),
);
console.log(
  `median wall ${median(passes.map((p) => p.wallMs)).toFixed(1)} ms (best ${Math.min(...passes.map((p) => p.wallMs)).toFixed(1)}), median CPU ${median(passes.map((p) => p.cpuMs)).toFixed(1)} ms; load average ${loadStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`,
);
