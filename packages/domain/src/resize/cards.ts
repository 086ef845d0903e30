// The most cards of a profile's kind one node has, for a refusal that names what the fleet offers.
import { meetsGpuNeed, type GpuNeed } from "../catalog/gpu-need";
import type { PlacementCard, PlacementNode } from "../placement/types";

function matches(card: PlacementCard, gpu: string | GpuNeed): boolean {
  if (!card.isHealthy) return false;
  return typeof gpu === "string" ? card.gpuClass === gpu : meetsGpuNeed(gpu, card);
}

/** Healthy cards of the class (or meeting the need) on the node that has the most of them. */
export function mostCardsOnANode(nodes: readonly PlacementNode[], gpu: string | GpuNeed): number {
  let most = 0;
  for (const node of nodes) {
    // A node's cards of several classes meeting one need are still cards of several classes:
    // placement gives a replica cards of one class, so count each class apart.
    const byClass = new Map<string, number>();
    for (const card of node.cards)
      if (matches(card, gpu)) byClass.set(card.gpuClass, (byClass.get(card.gpuClass) ?? 0) + 1);
    most = Math.max(most, ...byClass.values());
  }
  return most;
}
