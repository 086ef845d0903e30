// What a node's cards are, counted once per node object: the healthy cards per class, as counts
// and as bits, and the draw they share when they all draw alike. Counting a placement reads these
// instead of the card records, which at 80,000 cards were the coldest records a pass touched.
import type { HealthyCards, NodeUsage } from "./fleet-types";

/** The card's bit in a mask (bit i: card i), or 0 for an index that is not an integer 0 to 30. */
export function cardBit(index: number): number {
  return index >= 0 && index <= 30 && Number.isInteger(index) ? 1 << index : 0;
}

/**
 * The node's healthy cards per class (in `gpuClasses` order) and in all, counted once per node
 * object: a record is never changed in place (the plan cache already takes the same object for
 * the same node), so a pass over nodes that are last pass's objects reads none of their cards.
 */
export function healthyOf(usage: NodeUsage): HealthyCards {
  if (usage.healthy?.of === usage.node) return usage.healthy;
  const perClass = usage.gpuClasses.map(() => 0);
  let masks: number[] | undefined = usage.gpuClasses.map(() => 0);
  let listed = 0;
  let total = 0;
  const { cards } = usage.node;
  let drawAlike: number | undefined = cards.length > 0 ? (cards[0]?.drawWatts ?? 0) : undefined;
  for (const card of cards) {
    const { index } = card;
    const bit = cardBit(index);
    if (bit === 0 || (listed & bit) !== 0) masks = undefined;
    listed |= bit;
    if ((card.drawWatts ?? 0) !== drawAlike) drawAlike = undefined;
    if (!card.isHealthy) continue;
    const at = usage.gpuClasses.indexOf(card.gpuClass);
    perClass[at] = (perClass[at] as number) + 1;
    if (masks !== undefined) masks[at] = (masks[at] as number) | bit;
    total += 1;
  }
  const healthy: HealthyCards =
    masks === undefined
      ? { perClass, total, masks, listed: 0, drawAlike: undefined, of: usage.node }
      : { perClass, total, masks, listed, drawAlike, of: usage.node };
  usage.healthy = healthy;
  return healthy;
}
