// For each GPU class in the fleet, the plan a model gets on the node of that class with the most
// free cards: its full context on the fewest cards that hold it, else the most cards the node has
// free with the context shrunk, else the cards it would need.
import { planModel, validCardCounts, type ModelDescription, type ModelPlan } from "../sizing";
import type { ExploreGpuOption, ExploreNode, GpuVerdict } from "./types";

interface GpuClassRoom {
  gpuClass: string;
  cardMemoryGb: number;
  bestNode: string;
  cardsFreeOnBestNode: number;
  cardsFree: number;
}

function freeByClass(node: ExploreNode): Map<string, { count: number; memoryGb: number }> {
  const counts = new Map<string, { count: number; memoryGb: number }>();
  for (const card of node.freeCards) {
    const entry = counts.get(card.gpuClass) ?? { count: 0, memoryGb: card.memoryGb };
    // Cards of one class report nearly the same memory; plan on the smallest.
    counts.set(card.gpuClass, {
      count: entry.count + 1,
      memoryGb: Math.min(entry.memoryGb, card.memoryGb),
    });
  }
  return counts;
}

/** Each GPU class with free cards, its best node first by free cards, then by name. */
export function gpuClassRooms(nodes: readonly ExploreNode[]): GpuClassRoom[] {
  const rooms = new Map<string, GpuClassRoom>();
  const byName = [...nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const node of byName) {
    for (const [gpuClass, free] of freeByClass(node)) {
      const room = rooms.get(gpuClass);
      if (!room) {
        rooms.set(gpuClass, {
          ...{ gpuClass, cardMemoryGb: free.memoryGb, bestNode: node.name },
          ...{ cardsFreeOnBestNode: free.count, cardsFree: free.count },
        });
        continue;
      }
      room.cardsFree += free.count;
      room.cardMemoryGb = Math.min(room.cardMemoryGb, free.memoryGb);
      if (free.count > room.cardsFreeOnBestNode) {
        room.bestNode = node.name;
        room.cardsFreeOnBestNode = free.count;
      }
    }
  }
  return [...rooms.values()].sort((a, b) => (a.gpuClass < b.gpuClass ? -1 : 1));
}

function chooseCards(model: ModelDescription, probe: ModelPlan, free: number): number | undefined {
  const full = probe.cardsForFullContext;
  if (full !== undefined && full <= free) return full;
  const weights = probe.cardsForWeights;
  if (weights === undefined || weights > free) return undefined;
  // The most cards the node can give, for the longest context short of the full one.
  const counts = validCardCounts(model, free).filter((count) => count >= weights);
  return counts.at(-1) ?? weights;
}

function verdictOf(plan: ModelPlan, isPlacedNow: boolean): GpuVerdict {
  if (!isPlacedNow) return plan.cardsForWeights === undefined ? "too_large" : "needs_more_cards";
  return plan.contextTokens < plan.contextTokensAsked ? "shrunk" : "fits";
}

export function gpuOption(model: ModelDescription, room: GpuClassRoom): ExploreGpuOption {
  const cardsOf = (count: number) => ({ cards: { memoryGb: room.cardMemoryGb, count } });
  const probe = planModel(model, cardsOf(1));
  const chosen = chooseCards(model, probe, room.cardsFreeOnBestNode);
  const plan = planModel(model, cardsOf(chosen ?? probe.cardsForWeights ?? 1));
  return {
    ...room,
    verdict: verdictOf(plan, chosen !== undefined),
    cards: plan.cards,
    tensorParallel: plan.tensorParallel,
    expertParallel: plan.expertParallel,
    contextTokens: plan.contextTokens,
    contextTokensTrained: model.contextTokensTrained,
    cardsForWeights: probe.cardsForWeights,
    cardsForFullContext: probe.cardsForFullContext,
    notes: plan.notes,
  };
}
