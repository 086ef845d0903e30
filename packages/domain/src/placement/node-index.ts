// Candidate lists kept in the order placement prefers them, so a search reads from the front and
// stops at the first node that passes, instead of scoring every node of a class per request.
// A list holds only reachable nodes of one role (the others never pass) and, for a GPU class,
// only nodes whose cards are all of that class; the few with several classes are weighed one by
// one in search.ts.
import type { CandidateIndexes, CpuLists, Fleet, NodeUsage, OrderedNodes } from "./fleet-types";
import { insertNode, removeNode, sortedNodes } from "./sorted-nodes";

/** Whether `usage` is the record the fleet finds by `nodeId`, known without looking it up. */
export function isRecordOf(usage: NodeUsage | undefined, nodeId: string): usage is NodeUsage {
  return usage !== undefined && !usage.isShadowed && usage.node.id === nodeId;
}

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

/** The node's CPU list, or undefined where that list is not built yet (nothing to keep in order). */
function cpuListOf(lists: CpuLists, usage: NodeUsage): OrderedNodes | undefined {
  return hasCards(usage) ? lists.withCards : lists.withoutCards;
}

function isInClassIndex(usage: NodeUsage): usage is NodeUsage & { soleClass: string } {
  return usage.node.isReachable && usage.soleClass !== undefined;
}

/** The node's role under the label the lists are split by; "" for none. */
function roleOf(usage: NodeUsage, roleLabel: string | undefined): string {
  return roleLabel === undefined ? "" : (usage.node.labels[roleLabel] ?? "");
}

/** Called before a node's usage changes, so each list finds it under its old keys. */
export function unindexNode(indexes: CandidateIndexes, usage: NodeUsage): void {
  if (!usage.node.isReachable || indexes.roleLabel === undefined) return;
  const role = roleOf(usage, indexes.roleLabel);
  const cpuList = indexes.cpu.get(role);
  const cpu = cpuList && cpuListOf(cpuList, usage);
  if (cpu) remove(cpu, usage);
  if (!isInClassIndex(usage)) return;
  const index = indexes.byClass.get(usage.soleClass)?.get(role);
  if (index) remove(index, usage);
}

export function reindexNode(indexes: CandidateIndexes, usage: NodeUsage): void {
  if (!usage.node.isReachable || indexes.roleLabel === undefined) return;
  const role = roleOf(usage, indexes.roleLabel);
  const cpuList = indexes.cpu.get(role);
  const cpu = cpuList && cpuListOf(cpuList, usage);
  if (cpu) insert(cpu, usage);
  if (!isInClassIndex(usage)) return;
  const index = indexes.byClass.get(usage.soleClass)?.get(role);
  if (index) insert(index, usage);
}

/** The lists split by `roleLabel`: the ones split by another label are dropped, to be rebuilt. */
function indexesFor(fleet: Fleet, roleLabel: string): CandidateIndexes {
  const indexes = fleet.indexes;
  if (indexes.roleLabel !== roleLabel) {
    indexes.roleLabel = roleLabel;
    indexes.byClass.clear();
    indexes.cpu.clear();
  }
  return indexes;
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
export function classIndex(
  fleet: Fleet,
  gpuClass: string,
  roleLabel: string,
  role: string,
): OrderedNodes {
  const indexes = indexesFor(fleet, roleLabel);
  const byRole = indexes.byClass.get(gpuClass) ?? new Map<string, OrderedNodes>();
  indexes.byClass.set(gpuClass, byRole);
  const known = byRole.get(role);
  if (known) return known;
  const members = (fleet.nodesByClass.get(gpuClass) ?? []).filter(
    (usage) =>
      isInClassIndex(usage) && usage.soleClass === gpuClass && roleOf(usage, roleLabel) === role,
  );
  // nodesByClass is in input order, which is already each bucket's order.
  const index = fill(
    { bucketOf: freeCardsTotal, compare: byPosition, buckets: [] },
    members,
    false,
  );
  byRole.set(role, index);
  return index;
}

function cpuList(members: NodeUsage[]): OrderedNodes {
  return fill(
    { bucketOf: (usage) => usage.replicaCount, compare: byMemoryShare, buckets: [] },
    members,
    true,
  );
}

function isCpuMember(usage: NodeUsage, roleLabel: string, role: string): boolean {
  return usage.node.isReachable && roleOf(usage, roleLabel) === role;
}

/** The role's list of reachable nodes without cards: where CPU requests look first. */
export function cpuIndexes(fleet: Fleet, roleLabel: string, role: string): CpuLists {
  const indexes = indexesFor(fleet, roleLabel);
  const known = indexes.cpu.get(role);
  if (known) return known;
  const lists: CpuLists = {
    withoutCards: cpuList(
      fleet.nodes.filter((usage) => !hasCards(usage) && isCpuMember(usage, roleLabel, role)),
    ),
  };
  indexes.cpu.set(role, lists);
  return lists;
}

/** The role's list of reachable nodes with cards, built on first read and kept from then on. */
export function cpuWithCards(fleet: Fleet, lists: CpuLists, roleLabel: string, role: string) {
  lists.withCards ??= cpuList(
    fleet.nodes.filter((usage) => hasCards(usage) && isCpuMember(usage, roleLabel, role)),
  );
  return lists.withCards;
}
