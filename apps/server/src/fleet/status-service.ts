// The cluster in one screen: capacity per GPU class, free whole nodes (per fabric), replicas and
// models counted against what they should have now, which models are parked or unplaceable with
// why, and which hold ready replicas nobody asked for in a day.
import type { ClusterStatus, StatusService } from "@llmgw/api";
import { gt, sql, usageRecords, type Database } from "@llmgw/db";
import { shardsOf, type PlacementNode } from "@llmgw/domain";
import { livePlacementNodes, type FleetView } from "./fleet-view";
import { modelView } from "../catalog/model-views";
import {
  freeNodesByFabric,
  freeWholeNodes,
  unaskedFor,
  UNASKED_FOR_WINDOW_MS,
  type ModelHolding,
} from "./status-sections";

function capacity(nodes: PlacementNode[], held: Set<string>): ClusterStatus["capacity"] {
  const byClass = new Map<
    string,
    { cardsTotal: number; cardsUsed: number; cardsUnhealthy: number }
  >();
  for (const node of nodes) {
    for (const card of node.cards) {
      const entry = byClass.get(card.gpuClass) ?? {
        cardsTotal: 0,
        cardsUsed: 0,
        cardsUnhealthy: 0,
      };
      entry.cardsTotal += 1;
      // An unhealthy card is neither used nor free.
      if (!card.isHealthy) entry.cardsUnhealthy += 1;
      else if (held.has(`${node.id}/${card.index}`)) entry.cardsUsed += 1;
      byClass.set(card.gpuClass, entry);
    }
  }
  return [...byClass]
    .map(([gpuClass, counts]) => ({ gpuClass, ...counts }))
    .sort((a, b) => a.gpuClass.localeCompare(b.gpuClass, "en"));
}

/** How long one read of the usage rows answers `status`: consoles ask every 5 s each. */
const USAGE_READ_REUSE_MS = 15_000;

/** The last usage row per model since `since`, from the store. */
async function lastUsageAt(db: Database, since: Date): Promise<Map<string, number>> {
  const rows = await db
    .select({
      model: usageRecords.model,
      at: sql<Date | null>`max(${usageRecords.at})`.mapWith(usageRecords.at),
    })
    .from(usageRecords)
    .where(gt(usageRecords.at, since))
    .groupBy(usageRecords.model);
  return new Map(rows.flatMap((row) => (row.at ? [[row.model, row.at.getTime()]] : [])));
}

/**
 * When each model was last asked for in the window: the usage rows (written in batches, once a
 * second; read again at most every 15 s, since a day's rows are many and a few seconds change
 * nothing here), and for an on-demand model the gateway's own record of its last request.
 */
function createAskedReader(db: Database, fleet: FleetView) {
  let cached: { readAtMs: number; usage: Map<string, number> } | undefined;
  return async (models: readonly string[], sinceMs: number): Promise<Map<string, number>> => {
    const nowMs = fleet.nowMs();
    if (cached === undefined || nowMs - cached.readAtMs >= USAGE_READ_REUSE_MS) {
      // A store that is away must not take the rest of status with it: the last read stands in,
      // and before any read nothing is listed (rather than every model, which would be made up).
      const usage = await lastUsageAt(db, new Date(sinceMs)).catch(() => undefined);
      if (usage !== undefined) cached = { readAtMs: nowMs, usage };
    }
    if (cached === undefined) return new Map(models.map((model) => [model, nowMs]));
    const asked = new Map(cached.usage);
    for (const model of models) {
      const demandedAtMs = fleet.demandedAtMs(model);
      if (demandedAtMs !== null && demandedAtMs > (asked.get(model) ?? -Infinity))
        asked.set(model, demandedAtMs);
    }
    return asked;
  };
}

function holdings(fleet: FleetView, models: ReturnType<typeof modelView>[]): ModelHolding[] {
  return models.map((m) => ({
    model: m.name,
    replicasReady: m.replicasReady,
    cardsHeld: fleet.book
      .ofModel(m.name)
      .filter((r) => r.phase !== "stopped")
      .flatMap((r) => shardsOf(r))
      .reduce((sum, shard) => sum + shard.gpuIndexes.length, 0),
  }));
}

export function createStatusService(
  db: Database,
  fleet: FleetView,
  clusterId: string,
): StatusService {
  const askedAt = createAskedReader(db, fleet);
  return {
    async get() {
      const all = livePlacementNodes(fleet);
      const ready = all.filter((node) => node.isReachable);
      const active = fleet.book.active();
      // A replica spanning nodes holds cards, and keeps busy, every node of its shards.
      const shards = active.flatMap((r) => shardsOf(r));
      const held = new Set(
        shards.flatMap((s) => s.gpuIndexes.map((index) => `${s.nodeId}/${index}`)),
      );
      const free = freeWholeNodes(ready, new Set(shards.map((s) => s.nodeId)));
      const models = fleet.catalog.current().models.map((model) => modelView(fleet, model));
      const sinceMs = fleet.nowMs() - UNASKED_FOR_WINDOW_MS;
      const names = models.map((m) => m.name);
      const asked = await askedAt(names, sinceMs);
      return {
        clusterId,
        nodesReady: ready.length,
        nodesUnreachable: all.length - ready.length,
        freeWholeNodes: free.map((n) => n.name),
        freeWholeNodesByFabric: freeNodesByFabric(free),
        unaskedForWindowHours: UNASKED_FOR_WINDOW_MS / 3_600_000,
        unaskedFor: unaskedFor(holdings(fleet, models), asked, sinceMs),
        capacity: capacity(ready, held),
        replicasReady: models.reduce((sum, m) => sum + m.replicasReady, 0),
        replicasDesired: models.reduce((sum, m) => sum + m.replicasDesired, 0),
        modelsReady: models.filter((m) => m.state === "ready").length,
        modelsTotal: models.length,
        parked: models
          .filter((m) => m.isParked)
          .map((m) => ({ model: m.name, lastError: m.lastError ?? "" })),
        unplaceable: models
          .filter((m) => m.state === "unplaceable")
          .map((m) => ({ model: m.name, reasons: m.unplaceableReasons })),
      };
    },
  };
}
