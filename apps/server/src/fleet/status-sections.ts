// Two of `ctl status`'s sections as pure functions of the fleet: free whole nodes per fabric (what
// decides whether a replica spanning nodes can land, since free cards on another fabric are no room
// for it) and the models holding ready replicas that nobody asked for in a day.
import type { ClusterStatus } from "@llmgw/api";
import { FABRIC_LABEL, type PlacementNode } from "@llmgw/domain";

/** How far back a request counts as asking for a model. */
export const UNASKED_FOR_WINDOW_MS = 24 * 3_600_000;

/**
 * Nodes with every card free: reachable, with cards, none held by a replica (`busyNodeIds`), none
 * unhealthy (an unhealthy card is no room) and no hold or cordon keeping new replicas out.
 */
export function freeWholeNodes(
  nodes: readonly PlacementNode[],
  busyNodeIds: ReadonlySet<string>,
): PlacementNode[] {
  return nodes
    .filter(
      (node) =>
        node.isReachable &&
        node.cards.length > 0 &&
        node.hold === undefined &&
        !busyNodeIds.has(node.id) &&
        node.cards.every((card) => card.isHealthy),
    )
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/** A node's cards in one word: `H100-80G`, or `A100-80G+H100-80G` for a node with two kinds. */
function cardModelOf(node: PlacementNode): string {
  return [...new Set(node.cards.map((card) => card.gpuClass))]
    .sort((a, b) => a.localeCompare(b, "en"))
    .join("+");
}

/**
 * Free nodes grouped by their `llmgw.io/fabric` label (null for those without one, listed last),
 * each group counted by card model and cards per node.
 */
export function freeNodesByFabric(
  free: readonly PlacementNode[],
): ClusterStatus["freeWholeNodesByFabric"] {
  const fabrics = new Map<
    string | null,
    Map<string, { cardModel: string; cardsPerNode: number; nodes: number }>
  >();
  for (const node of free) {
    const fabric = node.labels[FABRIC_LABEL] ?? null;
    const byModel = fabrics.get(fabric) ?? new Map();
    fabrics.set(fabric, byModel);
    const cardModel = cardModelOf(node);
    const key = `${cardModel}\u0000${node.cards.length}`;
    const entry = byModel.get(key) ?? { cardModel, cardsPerNode: node.cards.length, nodes: 0 };
    entry.nodes += 1;
    byModel.set(key, entry);
  }
  return [...fabrics]
    .map(([fabric, byModel]) => {
      const byCardModel = [...byModel.values()].sort(
        (a, b) => a.cardModel.localeCompare(b.cardModel, "en") || a.cardsPerNode - b.cardsPerNode,
      );
      return { fabric, nodes: byCardModel.reduce((sum, e) => sum + e.nodes, 0), byCardModel };
    })
    .sort((a, b) =>
      a.fabric === null ? 1 : b.fabric === null ? -1 : a.fabric.localeCompare(b.fabric, "en"),
    );
}

/** A model with what it holds now; `cardsHeld` counts cards on every node of every replica. */
export interface ModelHolding {
  model: string;
  replicasReady: number;
  cardsHeld: number;
}

/**
 * Models with a ready replica that no request asked for since `sinceMs`. `askedAtMs` is the last
 * request per model from every source known (usage rows, and the gateway's own record for an
 * on-demand model); a model without one was not asked for in the window.
 */
export function unaskedFor(
  models: readonly ModelHolding[],
  askedAtMs: ReadonlyMap<string, number>,
  sinceMs: number,
): ClusterStatus["unaskedFor"] {
  return models
    .filter((m) => m.replicasReady > 0 && (askedAtMs.get(m.model) ?? -Infinity) < sinceMs)
    .map((m) => ({ model: m.model, replicasReady: m.replicasReady, cardsHeld: m.cardsHeld }))
    .sort((a, b) => b.cardsHeld - a.cardsHeld || a.model.localeCompare(b.model, "en"));
}
