// Persists what agents report at registration, and when each node was last heard, so the fleet
// is known again after a restart.
import { messageOf } from "@llmgw/domain";
import { eq, gpus, inArray, nodes, sql, type Database } from "@llmgw/db";
import type { Gpu, Register } from "@llmgw/proto";
import type { FleetRegistry } from "./registry";

async function saveRegistration(db: Database, register: Register, now: Date): Promise<void> {
  const hw = register.hardware;
  const row = {
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
  await db.transaction(async (tx) => {
    await tx
      .insert(nodes)
      .values({ ...row, firstSeenAt: now })
      .onConflictDoUpdate({ target: nodes.id, set: row });
    await tx.delete(gpus).where(eq(gpus.nodeId, register.nodeId));
    const cards = (hw?.gpus ?? []).map((gpu) => gpuRow(register.nodeId, gpu, now));
    if (cards.length > 0) {
      // A card moved from another node (or a re-imaged node) belongs to this one now.
      await tx.delete(gpus).where(
        inArray(
          gpus.uuid,
          cards.map((card) => card.uuid),
        ),
      );
      await tx.insert(gpus).values(cards);
    }
  });
}

function gpuRow(nodeId: string, gpu: Gpu, now: Date) {
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

/** Rows per UPDATE: two parameters each, well under PostgreSQL's 65,535 per statement. */
const LAST_SEEN_BATCH = 5_000;

/** Many nodes' last-seen times in one UPDATE … FROM (VALUES …) per batch. */
async function saveLastSeenMany(
  db: Database,
  seen: ReadonlyArray<{ nodeId: string; at: Date }>,
): Promise<void> {
  for (let start = 0; start < seen.length; start += LAST_SEEN_BATCH) {
    const rows = seen
      .slice(start, start + LAST_SEEN_BATCH)
      .map(({ nodeId, at }) => sql`(${nodeId}::text, ${at.toISOString()}::timestamptz)`);
    await db.execute(
      sql`update ${nodes} set last_seen_at = seen.at from (values ${sql.join(rows, sql`, `)}) as seen(id, at) where ${nodes.id} = seen.id`,
    );
  }
}

/** Saves node inventory as agent sessions come and go; a failed write is logged, never thrown. */
export interface InventoryWriter {
  /** A node registered: its inventory (host, cards) is saved anew. */
  registered(register: Register): Promise<void>;
  /** A node's session closed: its last-seen time is saved. */
  disconnected(nodeId: string): Promise<void>;
  /** The live nodes' last-seen times, written together. */
  lastSeen(seen: ReadonlyArray<{ nodeId: string; at: Date }>): Promise<void>;
}

export function createInventoryWriter(
  db: Database,
  registry: Pick<FleetRegistry, "get">,
  nowMs: () => number,
  log: (line: string) => void,
): InventoryWriter {
  const persist = (what: string, work: Promise<void>) =>
    work.catch((error: unknown) => log(`could not save ${what}: ${messageOf(error)}`));
  return {
    registered: (register) =>
      persist(`node ${register.nodeId}`, saveRegistration(db, register, new Date())),
    disconnected: (nodeId) =>
      persist(
        `node ${nodeId}`,
        saveLastSeen(db, nodeId, new Date(registry.get(nodeId)?.lastSeenMs ?? nowMs())),
      ),
    lastSeen: (seen) =>
      persist(`the last-seen times of ${seen.length} nodes`, saveLastSeenMany(db, seen)),
  };
}
