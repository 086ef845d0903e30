// Placements per second including persistence (P6): placing, then every placement recorded as
// the reconciler records it: the same record (placedRecord), the same book (ReplicaBook) and the
// same SQL, on PGlite (the embedded default) and on PostgreSQL. Three ways are timed: one pass
// and one write for everything (insertMany; the best case), one pass and one write per model
// (what the reconciler does on a cold start: it plans one model at a time, over every replica
// placed so far) and one pass with an awaited write per replica (insert; the reconciler before).
import { replicas, sql, type Store } from "@llmgw/db";
import {
  placeReplicas,
  type ExistingReplica,
  type PlacementRequest,
  type PlacementResult,
} from "@llmgw/domain";
import { placedRecord, ReplicaBook, type ReplicaRecord } from "@llmgw/server/replica-book";
import type { Scenario } from "./fleet";
import { median } from "./measure";

export type WriteMode = "pass" | "model" | "replica";

export interface PersistMeasurement {
  store: string;
  gpuNodes: number;
  mode: WriteMode;
  placed: number;
  runs: number;
  /** Median of placing and writing, together; the write alone beside it. */
  totalMs: number;
  writeMs: number;
  placementsPerSecond: number;
}

/** The rows the reconciler would write for what a pass placed. */
function recordsFor(
  requests: readonly PlacementRequest[],
  results: readonly PlacementResult[],
  nowMs: number,
): ReplicaRecord[] {
  const records: ReplicaRecord[] = [];
  results.forEach((result, at) => {
    const request = requests[at];
    if (!result.ok || !request) return;
    const action = {
      kind: "place" as const,
      model: request.model,
      replicaId: result.replicaId,
      profile: request.profile,
      revision: 1,
      shards: result.shards,
    };
    const record = placedRecord(action, request.engine, nowMs);
    if (record) records.push(record);
  });
  return records;
}

interface Timed {
  placed: number;
  writeMs: number;
}

async function timedWrite(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function placeAndWrite(
  book: ReplicaBook,
  scenario: Scenario,
  mode: WriteMode,
): Promise<Timed> {
  const { nodes, requests } = scenario;
  if (mode !== "model") {
    const records = recordsFor(
      requests,
      placeReplicas({ nodes, replicas: [] }, requests),
      Date.now(),
    );
    const writeMs = await timedWrite(async () => {
      if (mode === "pass") await book.insertMany(records);
      else for (const record of records) await book.insert(record);
      await book.flush();
    });
    return { placed: records.length, writeMs };
  }
  // A cold start as the reconciler runs it: model after model, each pass over what is placed so
  // far, each pass's placements written before the next model is planned.
  const byModel = new Map<string, PlacementRequest[]>();
  for (const request of requests) {
    const list = byModel.get(request.model);
    if (list) list.push(request);
    else byModel.set(request.model, [request]);
  }
  const existing: ExistingReplica[] = [];
  let placed = 0;
  let writeMs = 0;
  for (const modelRequests of byModel.values()) {
    const results = placeReplicas({ nodes, replicas: existing }, modelRequests);
    results.forEach((result, at) => {
      const request = modelRequests[at];
      if (!result.ok || !request) return;
      const { replicaId: id, model, memoryGb, cpuCores } = request;
      existing.push({ id, model, shards: result.shards, memoryGb, cpuCores });
    });
    const records = recordsFor(modelRequests, results, Date.now());
    placed += records.length;
    writeMs += await timedWrite(() => book.insertMany(records));
  }
  return { placed, writeMs };
}

/**
 * Times `runs` passes with their writes into an emptied table, and checks every run saved every
 * placement: a write that failed is logged by the book, which would make a fast, wrong number.
 */
export async function measurePersisted(
  storeName: string,
  store: Store,
  scenario: Scenario,
  mode: WriteMode,
  runs: number,
): Promise<{ measurement: PersistMeasurement; problems: string[] }> {
  const problems: string[] = [];
  const totals: number[] = [];
  const writes: number[] = [];
  let placed = 0;
  for (let run = 0; run < runs; run += 1) {
    await store.db.delete(replicas);
    const book = await ReplicaBook.open(store.db, (line) => problems.push(line));
    const started = performance.now();
    const timed = await placeAndWrite(book, scenario, mode);
    totals.push(performance.now() - started);
    writes.push(timed.writeMs);
    placed = timed.placed;
    const [saved] = await store.db
      .select({ rows: sql<number>`count(*)`.mapWith(Number) })
      .from(replicas);
    if (saved?.rows !== placed)
      problems.push(`${storeName}: ${saved?.rows ?? 0} rows saved for ${placed} placements`);
    if (placed !== scenario.requests.length)
      problems.push(`${storeName}: ${placed} of ${scenario.requests.length} replicas placed`);
  }
  const totalMs = median(totals);
  return {
    measurement: {
      store: storeName,
      gpuNodes: scenario.gpuNodes,
      mode,
      placed,
      runs,
      totalMs,
      writeMs: median(writes),
      placementsPerSecond: placed / (totalMs / 1_000),
    },
    problems,
  };
}
