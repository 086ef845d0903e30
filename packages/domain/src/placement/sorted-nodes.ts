// A sorted list of nodes cut into short blocks, so keeping it sorted as nodes move costs a search
// and a shift within one block of at most BLOCK_MAX, never a shift of thousands of entries (one
// splice per placement over a 2,000-node array made a reconcile pass grow with the square of
// the fleet). Readers walk `blocks` in order, then each block in order.
import type { NodeUsage, SortedNodes } from "./fleet-types";

const BLOCK_MAX = 64;

/** From nodes already in order, e.g. appended in input order for a list ordered by position. */
export function sortedNodes(
  compare: SortedNodes["compare"],
  ordered: readonly NodeUsage[] = [],
): SortedNodes {
  const blocks: NodeUsage[][] = [];
  for (let start = 0; start < ordered.length; start += BLOCK_MAX / 2)
    blocks.push(ordered.slice(start, start + BLOCK_MAX / 2));
  return { compare, blocks };
}

/** The first block whose last node does not sort before `usage`; the last block if none. */
export function blockOf(list: SortedNodes, usage: NodeUsage): number {
  let low = 0;
  let high = list.blocks.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const block = list.blocks[middle] as NodeUsage[];
    if (list.compare(block[block.length - 1] as NodeUsage, usage) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first slot of `block` whose node does not sort before `usage`; its length if none. */
export function slotOf(list: SortedNodes, block: readonly NodeUsage[], usage: NodeUsage): number {
  let low = 0;
  let high = block.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list.compare(block[middle] as NodeUsage, usage) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function insertNode(list: SortedNodes, usage: NodeUsage): void {
  const at = blockOf(list, usage);
  const block = list.blocks[at];
  if (!block) {
    list.blocks.push([usage]);
    return;
  }
  // Shifted by hand: splice would allocate an array of the removed entries on every call.
  const slot = slotOf(list, block, usage);
  block.push(usage);
  for (let at = block.length - 1; at > slot; at -= 1) block[at] = block[at - 1] as NodeUsage;
  block[slot] = usage;
  if (block.length > BLOCK_MAX)
    list.blocks.splice(at, 1, block.slice(0, BLOCK_MAX / 2), block.slice(BLOCK_MAX / 2));
}

export function removeNode(list: SortedNodes, usage: NodeUsage): void {
  const at = blockOf(list, usage);
  const block = list.blocks[at];
  if (!block) return;
  const slot = slotOf(list, block, usage);
  if (block[slot] !== usage) return;
  for (let at = slot; at < block.length - 1; at += 1) block[at] = block[at + 1] as NodeUsage;
  block.pop();
  if (block.length === 0) list.blocks.splice(at, 1);
}
