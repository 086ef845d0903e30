// Timing one scenario: a full pass (every replica from empty), a pass with no changes (every
// replica already placed, nothing asked) and a pass with one change (one replica to replace on an
// otherwise settled fleet, which pays for building the index). run.ts takes samples of every size
// in turn, so a burst of load on the shared machine lands on all sizes alike, and reports medians.
import {
  placeReplicas,
  type ExistingReplica,
  type PlacementRequest,
  type PlacementResult,
} from "@llmgw/domain";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Scenario } from "./fleet";
import {
  fullPass,
  noChangePass,
  type ReconcileMeasurement,
  type ReconcilePrepared,
  type ReconcileSample,
} from "./reconcile-pass";

type Collect = (options?: { type: "minor" | "major" }) => void;

// V8's own collector, reached without a command-line flag: the benchmark runs through tsx, and
// a flag that was forgotten would quietly make the runs unlike one another.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as Collect;

/**
 * Every timed pass starts from the same collector state, whatever ran before it: an empty young
 * generation, so the garbage of a larger size's pass is collected before a smaller one starts
 * instead of inside it. A minor collection, not a full one: a full one leaves sweeping to finish
 * on other threads while the next pass runs, and shrinks the young generation, which made every
 * 2,000-node pass several times slower in trials. It runs outside the time; what the pass itself
 * allocates is collected inside it, as in the server.
 */
function settle(): void {
  collect({ type: "minor" });
}

export interface Measurement {
  gpuNodes: number;
  nodes: number;
  gpus: number;
  replicas: number;
  placed: number;
  runs: number;
  /** Median over the runs; the best run beside it shows how much of the spread is the machine. */
  fullPassMs: number;
  fullPassMsBest: number;
  noChangePassMs: number;
  oneChangePassMs: number;
  placementsPerSecond: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A run's wall time in ms, started on an empty young generation (see settle). */
export function timeMs(run: () => unknown): number {
  settle();
  const started = performance.now();
  run();
  return performance.now() - started;
}

function placedReplicas(
  scenario: Scenario,
  results: readonly PlacementResult[],
): ExistingReplica[] {
  return results.flatMap((result, index) => {
    const request = scenario.requests[index];
    if (!result.ok || !request) return [];
    const { replicaId: id, model, memoryGb, cpuCores } = request;
    return [{ id, model, shards: result.shards, memoryGb, cpuCores }];
  });
}

/** A benchmark of a wrong answer is worthless: no card twice, every replica placed. */
function checkResults(scenario: Scenario, results: readonly PlacementResult[]): string[] {
  const problems: string[] = [];
  const held = new Set<string>();
  for (const result of results) {
    if (!result.ok) {
      problems.push(`${result.replicaId} was not placed: ${result.summary}`);
      continue;
    }
    for (const shard of result.shards)
      for (const card of shard.cardIndexes) {
        const key = `${shard.nodeId}#${card}`;
        if (held.has(key)) problems.push(`card ${key} was handed out twice`);
        held.add(key);
      }
  }
  if (results.length !== scenario.requests.length) problems.push("a result is missing");
  return problems;
}

export interface Prepared {
  scenario: Scenario;
  problems: string[];
  settled: ExistingReplica[];
  /** The settled fleet less one replica, and the request that puts it back. */
  oneLess: ExistingReplica[];
  oneRequest?: PlacementRequest;
}

export interface Sample {
  fullPassMs: number;
  noChangePassMs: number;
  oneChangePassMs: number;
}

/** Places everything once (which also warms the code up) and checks the answer. */
export function prepare(scenario: Scenario): Prepared {
  const results = placeReplicas({ nodes: scenario.nodes, replicas: [] }, scenario.requests);
  const settled = placedReplicas(scenario, results);
  const last = settled[settled.length - 1];
  const oneRequest = scenario.requests.find((request) => request.replicaId === last?.id);
  const prepared = {
    scenario,
    problems: checkResults(scenario, results),
    settled,
    oneLess: settled.slice(0, -1),
  };
  return oneRequest ? { ...prepared, oneRequest } : prepared;
}

export function sample({ scenario, settled, oneLess, oneRequest }: Prepared): Sample {
  const { nodes, requests } = scenario;
  return {
    fullPassMs: timeMs(() => placeReplicas({ nodes, replicas: [] }, requests)),
    noChangePassMs: timeMs(() => placeReplicas({ nodes, replicas: settled }, [])),
    oneChangePassMs: oneRequest
      ? timeMs(() => placeReplicas({ nodes, replicas: oneLess }, [oneRequest]))
      : Number.NaN,
  };
}

export function summarise(
  { scenario, settled }: Prepared,
  samples: readonly Sample[],
): Measurement {
  const fullPassMs = median(samples.map((s) => s.fullPassMs));
  return {
    gpuNodes: scenario.gpuNodes,
    nodes: scenario.nodes.length,
    gpus: scenario.nodes.reduce((sum, node) => sum + node.cards.length, 0),
    replicas: scenario.requests.length,
    placed: settled.length,
    runs: samples.length,
    fullPassMs,
    fullPassMsBest: Math.min(...samples.map((s) => s.fullPassMs)),
    noChangePassMs: median(samples.map((s) => s.noChangePassMs)),
    oneChangePassMs: median(samples.map((s) => s.oneChangePassMs)),
    placementsPerSecond: settled.length / (fullPassMs / 1_000),
  };
}

export function sampleReconcile({ scenario, settled }: ReconcilePrepared): ReconcileSample {
  return {
    fullPassMs: timeMs(() => fullPass(scenario)),
    noChangePassMs: timeMs(() => noChangePass(scenario, settled)),
  };
}

export function summariseReconcile(
  { scenario }: ReconcilePrepared,
  samples: readonly ReconcileSample[],
): ReconcileMeasurement {
  return {
    gpuNodes: scenario.gpuNodes,
    replicas: scenario.replicas,
    quotas: scenario.quotas,
    runs: samples.length,
    fullPassMs: median(samples.map((s) => s.fullPassMs)),
    fullPassMsBest: Math.min(...samples.map((s) => s.fullPassMs)),
    noChangePassMs: median(samples.map((s) => s.noChangePassMs)),
  };
}
