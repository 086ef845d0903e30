// What each node has left, computed once from the nodes and replicas and then kept current as
// replicas are placed, so one placement costs a pass over candidate nodes, never over every card
// of every replica again. Private to placement: callers see only the pure functions built on it.
import type { ExistingReplica, PlacementCard, PlacementNode } from "./types";

export interface NodeUsage {
  node: PlacementNode;
  /** Card index → the replica holding it. */
  holders: Map<number, string>;
  /** Healthy cards nobody holds, per class. */
  freeByClass: Map<string, number>;
  memoryGbUsed: number;
  cpuCoresUsed: number;
  replicaCount: number;
  modelCounts: Map<string, number>;
  cachedSources: ReadonlySet<string>;
}

export interface ClassInfo {
  memoryGb: number;
  computeCapability: number;
}

export interface Fleet {
  nodes: NodeUsage[];
  byId: Map<string, NodeUsage>;
  /** Which nodes have at least one card of a class: the candidates for a profile naming it. */
  nodesByClass: Map<string, NodeUsage[]>;
  /** The smallest memory and capability seen for a class, to resolve a need to classes. */
  classes: Map<string, ClassInfo>;
}

function indexNode(node: PlacementNode): NodeUsage {
  const freeByClass = new Map<string, number>();
  for (const card of node.cards) {
    if (card.isHealthy) freeByClass.set(card.gpuClass, (freeByClass.get(card.gpuClass) ?? 0) + 1);
  }
  return {
    node,
    holders: new Map(),
    freeByClass,
    memoryGbUsed: 0,
    cpuCoresUsed: 0,
    replicaCount: 0,
    modelCounts: new Map(),
    cachedSources: new Set(node.cachedSources ?? []),
  };
}

function noteClass(classes: Map<string, ClassInfo>, card: PlacementCard): void {
  const known = classes.get(card.gpuClass);
  classes.set(card.gpuClass, {
    memoryGb: Math.min(known?.memoryGb ?? Infinity, card.memoryGb),
    computeCapability: Math.min(known?.computeCapability ?? Infinity, card.computeCapability),
  });
}

export function buildFleet(
  nodes: readonly PlacementNode[],
  replicas: readonly ExistingReplica[],
): Fleet {
  const fleet: Fleet = { nodes: [], byId: new Map(), nodesByClass: new Map(), classes: new Map() };
  for (const node of nodes) {
    const usage = indexNode(node);
    fleet.nodes.push(usage);
    fleet.byId.set(node.id, usage);
    const seen = new Set<string>();
    for (const card of node.cards) {
      noteClass(fleet.classes, card);
      if (seen.has(card.gpuClass)) continue;
      seen.add(card.gpuClass);
      const list = fleet.nodesByClass.get(card.gpuClass) ?? [];
      list.push(usage);
      fleet.nodesByClass.set(card.gpuClass, list);
    }
  }
  for (const replica of replicas) addReplica(fleet, replica);
  return fleet;
}

function holdCard(usage: NodeUsage, cardIndex: number, replicaId: string): void {
  if (usage.holders.has(cardIndex)) return;
  usage.holders.set(cardIndex, replicaId);
  const card = usage.node.cards.find((candidate) => candidate.index === cardIndex);
  if (card?.isHealthy)
    usage.freeByClass.set(card.gpuClass, (usage.freeByClass.get(card.gpuClass) ?? 1) - 1);
}

/** Counts a replica against its nodes; shards on nodes the fleet does not know are ignored. */
export function addReplica(fleet: Fleet, replica: ExistingReplica): void {
  for (const shard of replica.shards) {
    const usage = fleet.byId.get(shard.nodeId);
    if (!usage) continue;
    for (const cardIndex of shard.cardIndexes) holdCard(usage, cardIndex, replica.id);
    usage.memoryGbUsed += replica.memoryGb;
    usage.cpuCoresUsed += replica.cpuCores;
    usage.replicaCount += 1;
    usage.modelCounts.set(replica.model, (usage.modelCounts.get(replica.model) ?? 0) + 1);
  }
}

/** Free healthy cards of a class on a node, lowest index first. */
export function freeCardsOf(usage: NodeUsage, gpuClass: string): PlacementCard[] {
  return usage.node.cards
    .filter(
      (card) => card.gpuClass === gpuClass && card.isHealthy && !usage.holders.has(card.index),
    )
    .sort((a, b) => a.index - b.index);
}
