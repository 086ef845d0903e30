// Power caps: a domain's PDU or feed carries so many watts, and a replica whose cards would take it
// past its cap (`facility.budgets`) is refused there. Each held card counts what it draws serving,
// the highest of its declared, derived and measured draw (the server works that out per card).
import type { Fleet, NodeUsage } from "./fleet-types";
import type { PlacementRequest } from "./types";

/** Adds the draw of cards a replica now holds to every budgeted domain of their node. */
export function noteDraw(fleet: Fleet, usage: NodeUsage, cardIndexes: readonly number[]): void {
  const budgets = usage.node.powerBudgets;
  if (budgets === undefined || budgets.length === 0) return;
  let watts = 0;
  for (const index of cardIndexes)
    watts += usage.node.cards.find((card) => card.index === index)?.drawWatts ?? 0;
  for (const budget of budgets)
    fleet.drawWattsByDomain.set(
      budget.domain,
      (fleet.drawWattsByDomain.get(budget.domain) ?? 0) + watts,
    );
}

/**
 * What the request's cards would add on this node: the most any `gpus` free cards of its class
 * draw (cards of one class draw alike; taking the highest keeps the check on the safe side).
 */
function addedWatts(usage: NodeUsage, request: PlacementRequest, gpuClass: string): number {
  // Cards of a class almost always draw alike: then it is a product, with nothing allocated.
  let lowest = Infinity;
  let highest = -Infinity;
  let free = 0;
  for (const card of usage.node.cards)
    if (card.gpuClass === gpuClass && card.isHealthy && usage.holders[card.index] === undefined) {
      const draw = card.drawWatts ?? 0;
      lowest = Math.min(lowest, draw);
      highest = Math.max(highest, draw);
      free += 1;
    }
  if (free === 0) return 0;
  if (lowest === highest) return lowest * Math.min(free, request.gpus);
  const draws: number[] = [];
  for (const card of usage.node.cards)
    if (card.gpuClass === gpuClass && card.isHealthy && usage.holders[card.index] === undefined)
      draws.push(card.drawWatts ?? 0);
  draws.sort((a, b) => b - a);
  let watts = 0;
  for (const draw of draws.slice(0, request.gpus)) watts += draw;
  return watts;
}

/** The first budget the request would break on this node, with the watts; undefined: none. */
export function brokenBudget(
  fleet: Fleet,
  usage: NodeUsage,
  request: PlacementRequest,
  gpuClass: string | undefined,
): string | undefined {
  const budgets = usage.node.powerBudgets;
  if (budgets === undefined || budgets.length === 0 || gpuClass === undefined) return undefined;
  const added = addedWatts(usage, request, gpuClass);
  for (const budget of budgets) {
    const drawn = fleet.drawWattsByDomain.get(budget.domain) ?? 0;
    if (drawn + added > budget.watts)
      return `would take ${budget.domain.replace("=", " ")} to ${Math.round(drawn + added)} W of its ${budget.watts} W power budget (draws ${Math.round(drawn)} W, this replica adds ${Math.round(added)} W)`;
  }
  return undefined;
}
