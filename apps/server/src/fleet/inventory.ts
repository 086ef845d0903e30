// Persists what agents report at registration, and when each node was last heard, so the fleet
// is known again after a restart.
import { messageOf, must } from "@llmgw/domain";
import { eq, nodes, sql, type Database } from "@llmgw/db";
import type { Gpu, Register } from "@llmgw/proto";
import type { FleetRegistry } from "./registry";
import type { StoredNodeRows } from "./stored-node-rows";
import { writeRegistrations } from "./registration-write";
import { createWriteBatch } from "./write-batch";

/** Registrations saved in one transaction at most (8 cards each: 4,000 card rows). */
const REGISTERS_PER_BATCH = 500;

/** A node's row as its registration writes it (nodes-service shows it from this until written). */
export function nodeRow(register: Register, now: Date) {
  const hw = register.hardware;
  return {
    id: register.nodeId,
    name: register.nodeName,
    agentVersion: register.agentVersion,
    labels: { ...register.labels },
    engines: [...register.engines],
    features: [...register.features],
    isSimulated: register.simulated,
    simulationProfile: register.simulationProfile || null,
    host: {
      cpuModel: hw?.cpu?.model ?? "",
      cpuCores: hw?.cpu?.cores ?? 0,
      os: hw?.os ?? "",
      arch: hw?.arch ?? "",
      driverVersion: hw?.driverVersion || null,
    },
    memoryBytesTotal: Number(hw?.memoryBytesTotal ?? 0n),
    diskBytesTotal: Number(hw?.diskBytesTotal ?? 0n),
    lastSeenAt: now,
  };
}

/**
 * Nodes' registrations (one or many) in one transaction of a few statements: each node's row and
 * its cards anew (registration-write.ts). A reconnect storm of 2,000 agents was 8,000 statements in
 * 2,000 transactions, then 4 statements a batch whose parameters Drizzle built one by one.
 */
async function saveRegistrations(
  db: Database,
  registers: readonly Register[],
  now: Date,
): Promise<void> {
  const rows = registers.map((register) => nodeRow(register, now));
  const cardsByUuid = new Map(
    registers.flatMap((register) =>
      (register.hardware?.gpus ?? []).map((gpu) => [gpu.uuid, gpuRow(register.nodeId, gpu, now)]),
    ),
  );
  await writeRegistrations(db, rows, [...cardsByUuid.values()]);
}

/** A card's row as a registration writes it. */
export function gpuRow(nodeId: string, gpu: Gpu, now: Date) {
  return {
    uuid: gpu.uuid,
    nodeId,
    index: gpu.index,
    name: gpu.name,
    memoryBytesTotal: Number(gpu.memoryBytesTotal),
    computeCapability: gpu.computeCapability || null,
    pcieGenMax: gpu.pcieGenMax ?? null,
    pcieGenCardMax: gpu.pcieGenCardMax ?? null,
    pcieGenCurrent: gpu.pcieGenCurrent ?? null,
    pcieWidthMax: gpu.pcieWidthMax ?? null,
    pcieWidthCurrent: gpu.pcieWidthCurrent ?? null,
    pciBusId: gpu.pciBusId || null,
    isMigEnabled: gpu.migEnabled,
    powerLimitWatts: gpu.powerLimitWatts ?? null,
    updatedAt: now,
  };
}

async function saveLastSeen(db: Database, nodeId: string, at: Date): Promise<void> {
  await db.update(nodes).set({ lastSeenAt: at }).where(eq(nodes.id, nodeId));
}

/**
 * Rows per UPDATE. PGlite runs each statement on the server's own thread, so one statement for a
 * 2,000-node fleet held every API read behind it for about 250 ms each 15 s (a polled heartbeat
 * showed that late); in statements of 250 rows an API read waits for one of about 30 ms.
 */
const LAST_SEEN_ROWS_PER_STATEMENT = 250;
/** Disconnections written together at most. */
const DISCONNECTIONS_PER_BATCH = 5_000;

/** Many nodes' last-seen times, an UPDATE … FROM (VALUES …) per LAST_SEEN_ROWS_PER_STATEMENT. */
async function saveLastSeenMany(
  db: Database,
  seen: ReadonlyArray<{ nodeId: string; at: Date }>,
): Promise<void> {
  for (let start = 0; start < seen.length; start += LAST_SEEN_ROWS_PER_STATEMENT) {
    const rows = seen
      .slice(start, start + LAST_SEEN_ROWS_PER_STATEMENT)
      .map(({ nodeId, at }) => sql`(${nodeId}::text, ${at.toISOString()}::timestamptz)`);
    await db.execute(
      sql`update ${nodes} set last_seen_at = seen.at from (values ${sql.join(rows, sql`, `)}) as seen(id, at) where ${nodes.id} = seen.id`,
    );
  }
}

/** The line logged when a batch fails and its nodes are written again one at a time. */
const batchFailed = (what: string, error: unknown) =>
  `could not save the ${what} together (${messageOf(error)}); writing them one node at a time`;

/**
 * Saves node inventory as agent sessions come and go; a failed write is logged, never thrown.
 * Registrations and disconnections that arrive together are written together.
 */
export interface InventoryWriter {
  /** A node registered: its inventory (host, cards) is saved anew. */
  registered(register: Register): Promise<void>;
  /** A node's session closed: its last-seen time is saved. */
  disconnected(nodeId: string): Promise<void>;
  /** The live nodes' last-seen times, written together. */
  lastSeen(seen: ReadonlyArray<{ nodeId: string; at: Date }>): Promise<void>;
  /**
   * Resolves once every write asked for so far (and any asked for meanwhile) has ended: the server
   * waits for it after closing the agent port and before closing the store, or a fleet's
   * disconnections would each fail against the closed store.
   */
  settled(): Promise<void>;
}

export function createInventoryWriter(
  db: Database,
  registry: Pick<FleetRegistry, "get">,
  nowMs: () => number,
  log: (line: string) => void,
  stored: Pick<StoredNodeRows, "changed">,
): InventoryWriter {
  const persist = (what: string, work: Promise<void>) =>
    work.catch((error: unknown) => log(`could not save ${what}: ${messageOf(error)}`));
  // The node rows kept in memory are read again after a registration or a disconnection. The
  // liveness sweep's last-seen times are not: a node the registry holds shows its live time.
  const saved = async (work: Promise<void>) => {
    try {
      await work;
    } finally {
      stored.changed();
    }
  };
  const inFlight = new Set<Promise<void>>();
  const tracked = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  };
  const saveOne = (register: Register) =>
    persist(`node ${register.nodeId}`, saveRegistrations(db, [register], new Date()));
  const lastSeenOf = (nodeId: string) => ({
    nodeId,
    at: new Date(registry.get(nodeId)?.lastSeenMs ?? nowMs()),
  });
  const saveSeenOne = (nodeId: string) =>
    persist(`node ${nodeId}`, saveLastSeen(db, nodeId, lastSeenOf(nodeId).at));
  // A batch that fails is written again a node at a time, so one bad node fails only itself.
  const registered = createWriteBatch<Register>({
    maxItems: REGISTERS_PER_BATCH,
    write: async (batch) => {
      const latest = [...new Map(batch.map((register) => [register.nodeId, register])).values()];
      if (latest.length === 1) return saveOne(must(latest[0], "a register"));
      await saveRegistrations(db, latest, new Date()).catch(async (error: unknown) => {
        log(batchFailed(`registrations of ${latest.length} nodes`, error));
        for (const register of latest) await saveOne(register);
      });
    },
  });
  const disconnected = createWriteBatch<string>({
    maxItems: DISCONNECTIONS_PER_BATCH,
    write: async (batch) => {
      const ids = [...new Set(batch)];
      if (ids.length === 1) return saveSeenOne(must(ids[0], "a node id"));
      await saveLastSeenMany(db, ids.map(lastSeenOf)).catch(async (error: unknown) => {
        log(batchFailed(`last-seen times of ${ids.length} disconnected nodes`, error));
        for (const nodeId of ids) await saveSeenOne(nodeId);
      });
    },
  });
  return {
    registered: (register) => tracked(saved(registered(register))),
    disconnected: (nodeId) => tracked(saved(disconnected(nodeId))),
    lastSeen: (seen) =>
      tracked(persist(`the last-seen times of ${seen.length} nodes`, saveLastSeenMany(db, seen))),
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
