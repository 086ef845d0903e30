// The cluster in one screen: capacity per GPU class, free whole nodes, replicas and models counted
// against what they should have now, and which models are parked or unplaceable with why.
import type { ClusterStatus, StatusService } from "@llmgw/api";
import { shardsOf, type PlacementNode } from "@llmgw/domain";
import { livePlacementNodes, type FleetView } from "./fleet-view";
import { modelView } from "../catalog/model-views";

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

export function createStatusService(fleet: FleetView, clusterId: string): StatusService {
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
      const busyNodes = new Set(shards.map((s) => s.nodeId));
      const models = fleet.catalog.current().models.map((model) => modelView(fleet, model));
      return {
        clusterId,
        nodesReady: ready.length,
        nodesUnreachable: all.length - ready.length,
        freeWholeNodes: ready
          .filter((n) => n.cards.length > 0 && !busyNodes.has(n.id))
          .map((n) => n.name)
          .sort(),
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
