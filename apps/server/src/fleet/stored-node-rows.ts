// The stored inventory the node views are built from (node rows, their cards, engine-build
// choices), kept in memory between reads. The console polls the fleet every few seconds; at 2,000
// nodes reading 16,000 card rows from the store for each poll was most of an answer's time, yet
// those rows change only when a node registers or disconnects, or an operator picks an engine
// build. The writers say so (`changed`); live readings come from the registry on every read anyway.
// The rows are held lightly: a card row leaves out its update time (no reader uses it), and the
// strings repeated across rows (each card's node id and model name, bus ids, host fields) are kept
// once per read (shared-strings.ts).
import {
  asc,
  getTableColumns,
  gpus,
  nodeEngineBuilds,
  nodes,
  type Database,
  type GpuRow,
  type NodeEngineBuildRow,
  type NodeRow,
} from "@llmgw/db";
import { SharedStrings } from "../shared-strings";

/** A card's stored row as the node views read it: all but its update time. */
export type CardRow = Omit<GpuRow, "updatedAt">;

export interface NodeRowSet {
  nodeRows: NodeRow[];
  gpuRows: CardRow[];
  buildRows: NodeEngineBuildRow[];
}

/**
 * Rows are read again after this long even when no writer said they changed: a write this process
 * did not make (another control plane that led before) is seen within it.
 */
const STORED_NODE_ROWS_MAX_AGE_MS = 30_000;

export class StoredNodeRows {
  private cached: { readAtMs: number; rows: Promise<NodeRowSet> } | null = null;
  /** Reads of the store made, for tests. */
  reads = 0;

  constructor(
    private readonly read: () => Promise<NodeRowSet>,
    private readonly nowMs: () => number,
    private readonly maxAgeMs = STORED_NODE_ROWS_MAX_AGE_MS,
  ) {}

  /** The rows, read from the store only when a writer changed them or they are too old. */
  rows(): Promise<NodeRowSet> {
    const nowMs = this.nowMs();
    if (this.cached && nowMs - this.cached.readAtMs < this.maxAgeMs) return this.cached.rows;
    this.reads += 1;
    const entry = { readAtMs: nowMs, rows: this.read() };
    this.cached = entry;
    // A failed read is not kept: the next caller tries again.
    entry.rows.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return entry.rows;
  }

  /**
   * Called once a write to these rows has been committed. A read already under way may have
   * started before the write, so its answer is not kept either.
   */
  changed(): void {
    this.cached = null;
  }
}

export function storedNodeRows(db: Database, nowMs: () => number): StoredNodeRows {
  const { updatedAt: _updatedAt, ...cardColumns } = getTableColumns(gpus);
  return new StoredNodeRows(async () => {
    const [nodeRows, gpuRows, buildRows] = await Promise.all([
      db.select().from(nodes).orderBy(asc(nodes.name)),
      db.select(cardColumns).from(gpus).orderBy(asc(gpus.index)),
      db.select().from(nodeEngineBuilds),
    ]);
    const rows = { nodeRows, gpuRows: gpuRows.map(compactCard), buildRows };
    return new SharedStrings().shareAll(rows);
  }, nowMs);
}

/**
 * The same card row made as one literal: the driver adds a row's fields one by one, which leaves
 * most of them in a separate property array (bench:memory, 2026-12-05: 31 bytes a card less).
 */
function compactCard(row: CardRow): CardRow {
  return {
    uuid: row.uuid,
    nodeId: row.nodeId,
    index: row.index,
    name: row.name,
    memoryBytesTotal: row.memoryBytesTotal,
    computeCapability: row.computeCapability,
    pcieGenMax: row.pcieGenMax,
    pcieGenCardMax: row.pcieGenCardMax,
    pcieGenCurrent: row.pcieGenCurrent,
    pcieWidthMax: row.pcieWidthMax,
    pcieWidthCurrent: row.pcieWidthCurrent,
    pciBusId: row.pciBusId,
    isMigEnabled: row.isMigEnabled,
    powerLimitWatts: row.powerLimitWatts,
  };
}
