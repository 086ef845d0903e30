// Placements per second including persistence (P6): a full pass, then every placement recorded as
// the reconciler records it: the same record (placedRecord), the same book (ReplicaBook) and the
// same SQL, on PGlite (the embedded default) and on PostgreSQL. Two ways of writing are timed:
// one write for the pass's placements (insertMany, what the reconciler does for a run of
// placements) and one awaited write per replica (insert, what it did before).
import { replicas, sql, type Store } from "@llmgw/db";
import { placeReplicas } from "@llmgw/domain";
import { placedRecord, ReplicaBook, type ReplicaRecord } from "@llmgw/server/replica-book";
import type { Scenario } from "./fleet";
import { median } from "./measure";

export type WriteMode = "pass" | "replica";

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

/** The pass the reconciler runs, and the rows it would write for what it placed. */
function placeAndRecord(scenario: Scenario, nowMs: number): ReplicaRecord[] {
  const results = placeReplicas({ nodes: scenario.nodes, replicas: [] }, scenario.requests);
  const records: ReplicaRecord[] = [];
  results.forEach((result, at) => {
    const request = scenario.requests[at];
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

async function write(book: ReplicaBook, records: ReplicaRecord[], mode: WriteMode): Promise<void> {
  if (mode === "pass") await book.insertMany(records);
  else for (const record of records) await book.insert(record);
  await book.flush();
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
    const records = placeAndRecord(scenario, Date.now());
    const placedAt = performance.now();
    await write(book, records, mode);
    const ended = performance.now();
    totals.push(ended - started);
    writes.push(ended - placedAt);
    placed = records.length;
    const [saved] = await store.db
      .select({ rows: sql<number>`count(*)`.mapWith(Number) })
      .from(replicas);
    if (saved?.rows !== records.length)
      problems.push(
        `${storeName}: ${saved?.rows ?? 0} rows saved for ${records.length} placements`,
      );
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
