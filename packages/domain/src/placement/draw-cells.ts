// A budgeted domain's draw as a cell its nodes' records point at. The power check asks it of every
// node it weighs and each placement adds to it; by the domain's name, each was a lookup in a map
// keyed by strings that every node holds a copy of, and those reads were among the coldest of a
// pass. The cells are the fleet's own draws: `drawWattsByDomain` is brought up to date from them
// when it is read (see drawsOf), in the order a map written at every placement would hold.
import type { DrawCell, DrawCells, Fleet, NodeUsage } from "./fleet-types";
import type { PowerBudget } from "./types";

export function createDrawCells(): DrawCells {
  return { of: new Map(), byDomain: new Map(), pending: [], size: 0, owner: undefined };
}

/** The fleet's map of draws by domain, with every cell changed since it was last read written in. */
export function drawsOf(cells: DrawCells): Map<string, number> {
  for (let at = 0; at < cells.size; at += 1) {
    const cell = cells.pending[at] as DrawCell;
    cells.of.set(cell.domain, cell.watts);
    cell.isPending = false;
  }
  // Written over, never cut: an array cut to length 0 loses its storage.
  cells.size = 0;
  return cells.of;
}

function zeroCell(cell: DrawCell): void {
  cell.watts = 0;
  cell.isPending = false;
}

/** No draw anywhere, as a new fleet has: the map emptied, the cells kept at 0 for their nodes. */
export function clearDrawCells(cells: DrawCells): void {
  cells.of.clear();
  cells.byDomain.forEach(zeroCell);
  cells.pending.fill(undefined as unknown as DrawCell, 0, cells.size);
  cells.size = 0;
}

/**
 * The cell of the node's one budget, taken when its list is first asked about (the list is the
 * node's own, by identity); undefined for a node with several budgets, and for a fleet that is not
 * the cells' owner (a what-if view with draws of its own), whose draws are read by name.
 */
export function soleBudgetCell(
  fleet: Fleet,
  usage: NodeUsage,
  budgets: readonly PowerBudget[],
): DrawCell | undefined {
  if (fleet.drawCells.owner !== fleet) return undefined;
  if (usage.budgetsOf !== budgets) {
    const only = budgets.length === 1 ? budgets[0] : undefined;
    usage.budgetsOf = budgets;
    usage.budgetCell = only === undefined ? undefined : cellOf(fleet.drawCells, only.domain);
    usage.budgetWatts = only === undefined ? 0 : only.watts;
  }
  return usage.budgetCell;
}

/** The domain's cell, made on first use with the draw the map holds for it. */
function cellOf(cells: DrawCells, domain: string): DrawCell {
  let cell = cells.byDomain.get(domain);
  if (cell === undefined) {
    cell = { domain, watts: drawsOf(cells).get(domain) ?? 0, isPending: false };
    cells.byDomain.set(domain, cell);
  }
  return cell;
}

/** Adds watts to a cell; the map is written when next read. */
export function addToCell(cells: DrawCells, cell: DrawCell, watts: number): void {
  cell.watts += watts;
  if (cell.isPending) return;
  cell.isPending = true;
  cells.pending[cells.size] = cell;
  cells.size += 1;
}

/** After the map was written by name: the domain's cell, if it has one, holds the same. */
export function syncCell(cells: DrawCells, domain: string, watts: number): void {
  const cell = cells.byDomain.get(domain);
  if (cell !== undefined) cell.watts = watts;
}
