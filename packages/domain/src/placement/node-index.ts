// Candidate lists kept in the order placement prefers them, so a search reads from the front and
// stops at the first node that passes, instead of scoring every node of a class per request.
// A list holds only reachable nodes (the others never pass) and, for a GPU class, only nodes whose
// cards are all of that class; the few with several classes are weighed one by one in search.ts.
import type { CandidateIndexes, Fleet, NodeUsage, OrderedNodes } from "./fleet-types";
import { insertNode, removeNode, sortedNodes } from "./sorted-nodes";

export function freeCardsTotal(usage: NodeUsage): number {
  return usage.freeTotal;
}

/** Whether a node has cards at all (healthy or not): CPU work keeps off such nodes while it can. */
export function hasCards(usage: NodeUsage): boolean {
  return usage.gpuClasses.length > 0;
}

export function memoryShareOf(usage: NodeUsage): number {
  return usage.memoryShare;
}

const byPosition = (a: NodeUsage, b: NodeUsage) => a.position - b.position;

// The sign of the share difference, not the difference: a whole number comes back unboxed, where
// a fraction returned from a comparator called through the list cost an allocation per call.
function byMemoryShare(a: NodeUsage, b: NodeUsage): number {
  const difference = a.memoryShare - b.memoryShare;
  if (difference < 0) return -1;
  if (difference > 0) return 1;
  return a.position - b.position;
}

function insert(index: OrderedNodes, usage: NodeUsage): void {
  const bucket = index.bucketOf(usage);
  insertNode((index.buckets[bucket] ??= sortedNodes(index.compare)), usage);
}

function remove(index: OrderedNodes, usage: NodeUsage): void {
  const list = index.buckets[index.bucketOf(usage)];
  if (list) removeNode(list, usage);
}

function cpuListOf(lists: readonly [OrderedNodes, OrderedNodes], usage: NodeUsage): OrderedNodes {
  return hasCards(usage) ? lists[1] : lists[0];
}

function isInClassIndex(usage: NodeUsage): usage is NodeUsage & { soleClass: string } {
  return usage.node.isReachable && usage.soleClass !== undefined;
}

/** Called before a node's usage changes, so each list finds it under its old keys. */
export function unindexNode(indexes: CandidateIndexes, usage: NodeUsage): void {
  if (!usage.node.isReachable) return;
  if (indexes.cpu) remove(cpuListOf(indexes.cpu, usage), usage);
  if (!isInClassIndex(usage)) return;
  const index = indexes.byClass.get(usage.soleClass);
  if (index) remove(index, usage);
}

export function reindexNode(indexes: CandidateIndexes, usage: NodeUsage): void {
  if (!usage.node.isReachable) return;
  if (indexes.cpu) insert(cpuListOf(indexes.cpu, usage), usage);
  if (!isInClassIndex(usage)) return;
  const index = indexes.byClass.get(usage.soleClass);
  if (index) insert(index, usage);
}

/** Groups nodes (given in input order) into buckets, each then sorted by the index's order. */
function fill(index: OrderedNodes, nodes: readonly NodeUsage[], sortEach: boolean): OrderedNodes {
  const grouped: NodeUsage[][] = [];
  for (const usage of nodes) (grouped[index.bucketOf(usage)] ??= []).push(usage);
  grouped.forEach((group, bucket) => {
    if (sortEach) group.sort(index.compare);
    index.buckets[bucket] = sortedNodes(index.compare, group);
  });
  return index;
}

// Built on the first request that needs it: a pass that places nothing, or only GPU replicas,
// never pays for the lists it does not read.
export function classIndex(fleet: Fleet, gpuClass: string): OrderedNodes {
  const known = fleet.indexes.byClass.get(gpuClass);
  if (known) return known;
  const members = (fleet.nodesByClass.get(gpuClass) ?? []).filter(
    (usage) => isInClassIndex(usage) && usage.soleClass === gpuClass,
  );
  // nodesByClass is in input order, which is already each bucket's order.
  const index = fill(
    { bucketOf: freeCardsTotal, compare: byPosition, buckets: [] },
    members,
    false,
  );
  fleet.indexes.byClass.set(gpuClass, index);
  return index;
}

export function cpuIndexes(fleet: Fleet): readonly [OrderedNodes, OrderedNodes] {
  if (fleet.indexes.cpu) return fleet.indexes.cpu;
  const reachable = fleet.nodes.filter((usage) => usage.node.isReachable);
  const list = (members: NodeUsage[]): OrderedNodes =>
    fill(
      { bucketOf: (usage) => usage.replicaCount, compare: byMemoryShare, buckets: [] },
      members,
      true,
    );
  const lists = [
    list(reachable.filter((usage) => !hasCards(usage))),
    list(reachable.filter(hasCards)),
  ] as const;
  fleet.indexes.cpu = lists;
  return lists;
}
