// Who holds each card, for the heatmap's tooltips: `replicas.cards` (which replica holds which
// card) joined with each model's owner, keyed by node id and card index as the cells name a card.
import type { ReplicaCardsView } from "@llmgw/api";

export interface CardOwnership {
  replicaId: string;
  model: string;
  /** The model's owner; null when it has none or the catalog has not loaded. */
  owner: string | null;
}

export function cardKey(nodeId: string, cardIndex: number): string {
  return `${nodeId}/${cardIndex}`;
}

export function cardOwnership(
  view: ReplicaCardsView | undefined,
  ownerOfModel: ReadonlyMap<string, string | null>,
): Map<string, CardOwnership> {
  const byCard = new Map<string, CardOwnership>();
  if (!view) return byCard;
  for (const replica of view.replicas) {
    const model = view.models[replica.model] ?? "";
    const held: CardOwnership = {
      replicaId: replica.id,
      model,
      owner: ownerOfModel.get(model) ?? null,
    };
    for (const place of replica.places) {
      const nodeId = view.nodeIds[place.node];
      if (nodeId === undefined) continue;
      for (const index of place.gpuIndexes) byCard.set(cardKey(nodeId, index), held);
    }
  }
  return byCard;
}
