// Power caps: a domain's PDU or feed carries so many watts, and a replica whose cards would take it
// past its cap (`facility.budgets`) is refused there. Each held card counts what it draws serving,
// the highest of its declared (the catalog's per-card draw, or the card's power limit), derived
// (its model's published board power) and measured draw; the server works out the card's own.
import type { CountedDraw, DrawSource } from "../facility/board-power";
import { addToCell, soleBudgetCell, syncCell } from "./draw-cells";
import type { DrawCells, Fleet, HealthyCards, NodeUsage } from "./fleet-types";
import { cardBit } from "./healthy-cards";
import type { ExistingReplica, PlacementCard, PlacementRequest } from "./types";

/** What a card counts for a replica declaring `declaredWatts` per card (the catalog's figure). */
function cardDraw(
  card: PlacementCard | undefined,
  declaredWatts: number | undefined,
): { watts: number; from?: DrawSource } {
  const own = card?.drawWatts ?? 0;
  if (declaredWatts !== undefined && declaredWatts >= own)
    return { watts: declaredWatts, from: "catalog" };
  return card?.drawFrom === undefined ? { watts: own } : { watts: own, from: card.drawFrom };
}

/** The first card with that index, as find would give, by a loop that allocates no closure. */
function cardAt(usage: NodeUsage, index: number): PlacementCard | undefined {
  for (const card of usage.node.cards) if (card.index === index) return card;
  return undefined;
}

function shardWatts(
  usage: NodeUsage,
  cardIndexes: readonly number[],
  declared?: number,
  healthy?: HealthyCards,
): number {
  let watts = 0;
  const alike = healthy?.of === usage.node ? healthy.drawAlike : undefined;
  if (alike !== undefined) {
    // Every card draws `alike` and each has an index of its own: a card is listed or absent.
    const { listed } = healthy as HealthyCards;
    for (const index of cardIndexes)
      watts += drawOfWatts((listed & cardBit(index)) !== 0 ? alike : 0, declared);
    return watts;
  }
  // The number alone (drawOf): cardDraw made a record per card of every placement.
  for (const index of cardIndexes) watts += drawOf(cardAt(usage, index), declared);
  return watts;
}

function addToBudgets(
  draws: Map<string, number>,
  usage: NodeUsage,
  watts: number,
  cells?: DrawCells,
): void {
  for (const budget of usage.node.powerBudgets ?? []) {
    const after = (draws.get(budget.domain) ?? 0) + watts;
    draws.set(budget.domain, after);
    if (cells !== undefined) syncCell(cells, budget.domain, after);
  }
}

/** Adds the draw of cards a replica now holds to every budgeted domain of their node. */
export function noteDraw(
  fleet: Fleet,
  usage: NodeUsage,
  cardIndexes: readonly number[],
  declaredWatts?: number,
  healthy?: HealthyCards,
): void {
  const budgets = usage.node.powerBudgets;
  if (budgets === undefined || budgets.length === 0) return;
  const watts = shardWatts(usage, cardIndexes, declaredWatts, healthy);
  const cell = soleBudgetCell(fleet, usage, budgets);
  if (cell === undefined) {
    // Read first, so the map is up to date before it is written by name.
    const draws = fleet.drawWattsByDomain;
    const isOwn = fleet.drawCells.owner === fleet;
    addToBudgets(draws, usage, watts, isOwn ? fleet.drawCells : undefined);
    return;
  }
  addToCell(fleet.drawCells, cell, watts);
}

/**
 * The domains' draw were `leaving` gone: a what-if that frees their cards must free their watts
 * too, or a replica stopped to make room would count against the budget beside its successor.
 */
export function drawWithout(
  fleet: Fleet,
  leaving: readonly ExistingReplica[],
): Map<string, number> {
  const draws = new Map(fleet.drawWattsByDomain);
  for (const replica of leaving)
    for (const shard of replica.shards) {
      const usage = fleet.byId.get(shard.nodeId);
      if (usage === undefined) continue;
      addToBudgets(draws, usage, -shardWatts(usage, shard.cardIndexes, replica.drawWattsPerCard));
    }
  return draws;
}

/** A card's draw as a number: cardDraw without the object, for the checks run on every node. */
function drawOf(card: PlacementCard | undefined, declaredWatts: number | undefined): number {
  return drawOfWatts(card?.drawWatts ?? 0, declaredWatts);
}

/** drawOf from the card's own figure (0 for none). */
function drawOfWatts(own: number, declaredWatts: number | undefined): number {
  return declaredWatts !== undefined && declaredWatts >= own ? declaredWatts : own;
}

const isFreeOf = (usage: NodeUsage, card: PlacementCard, gpuClass: string) =>
  card.gpuClass === gpuClass && card.isHealthy && usage.holders[card.index] === undefined;

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
    if (isFreeOf(usage, card, gpuClass)) {
      const draw = drawOf(card, request.drawWattsPerCard);
      lowest = Math.min(lowest, draw);
      highest = Math.max(highest, draw);
      free += 1;
    }
  if (free === 0) return 0;
  if (lowest === highest) return lowest * Math.min(free, request.gpus);
  const draws: number[] = [];
  for (const card of usage.node.cards)
    if (isFreeOf(usage, card, gpuClass)) draws.push(drawOf(card, request.drawWattsPerCard));
  draws.sort((a, b) => b - a);
  let watts = 0;
  for (const draw of draws.slice(0, request.gpus)) watts += draw;
  return watts;
}

/** Which figures the cards counted in addedWatts came from; read only to word a refusal. */
function addedSources(
  usage: NodeUsage,
  request: PlacementRequest,
  gpuClass: string,
): Set<DrawSource> {
  const draws: { watts: number; from?: DrawSource }[] = [];
  for (const card of usage.node.cards)
    if (isFreeOf(usage, card, gpuClass)) draws.push(cardDraw(card, request.drawWattsPerCard));
  draws.sort((a, b) => b.watts - a.watts);
  const from = new Set<DrawSource>();
  for (const draw of draws.slice(0, request.gpus))
    if (draw.from !== undefined && draw.watts > 0) from.add(draw.from);
  return from;
}

const SOURCE_WORDS: Record<CountedDraw["from"], string> = {
  catalog: "the catalog's declared draw",
  "power limit": "the cards' power limit",
  derived: "the card model's published board power",
  measured: "the cards' measured draw",
};

const sourcesOf = (from: ReadonlySet<DrawSource>): string =>
  from.size === 0 ? "" : ` by ${[...from].map((source) => SOURCE_WORDS[source]).join(" and ")}`;

/**
 * Whether the request would break a budget on this node: brokenBudget's test without its sentence,
 * for the search, which asks it of every candidate and reads no reasons.
 */
export function breaksBudget(
  fleet: Fleet,
  usage: NodeUsage,
  request: PlacementRequest,
  gpuClass: string | undefined,
): boolean {
  const budgets = usage.node.powerBudgets;
  if (budgets === undefined || budgets.length === 0 || gpuClass === undefined) return false;
  // No card adds more than the most any card draws or the declared draw, whichever is higher: when
  // even that many fit every budget, the node passes without its cards being read.
  const most = request.gpus * Math.max(usage.mostCardWatts, request.drawWattsPerCard ?? 0);
  const cell = soleBudgetCell(fleet, usage, budgets);
  if (cell !== undefined) {
    // The loop below for the one budget, its draw read from the cell rather than by its name.
    const drawn = cell.watts;
    if (drawn + most <= usage.budgetWatts) return false;
    return drawn + addedWatts(usage, request, gpuClass) > usage.budgetWatts;
  }
  let added = -1;
  for (const budget of budgets) {
    const drawn = fleet.drawWattsByDomain.get(budget.domain) ?? 0;
    if (drawn + most <= budget.watts) continue;
    if (added < 0) added = addedWatts(usage, request, gpuClass);
    if (drawn + added > budget.watts) return true;
  }
  return false;
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
      return `would take ${budget.domain.replace("=", " ")} to ${Math.round(drawn + added)} W of its ${budget.watts} W power budget (draws ${Math.round(drawn)} W, this replica adds ${Math.round(added)} W${sourcesOf(addedSources(usage, request, gpuClass))})`;
  }
  return undefined;
}
