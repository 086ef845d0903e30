// What each node has left, computed once from the nodes and replicas and then kept current as
// replicas are placed, so one placement costs a look at the few nodes that could take it, never a
// pass over every card of every replica again. Private to placement: callers see only the pure
// functions built on it.
import { DomainsByModel, DomainsNearModel, type DomainCounts } from "./domain-counts";
import { clearDrawCells, createDrawCells, drawsOf } from "./draw-cells";
import type { ClassInfo, DomainMark, Fleet, NodeUsage } from "./fleet-types";
import { cardBit, healthyOf } from "./healthy-cards";
import { ModelCounts } from "./model-counts";
import { isRecordOf, reindexNode, unindexNode } from "./node-index";
import { noteDraw } from "./power";
import { domainCounts, domainMark, noteSpread, spreadDomainsOf } from "./spread";
import type { ExistingReplica, PlacementCard, PlacementNode, ReplicaShard } from "./types";

// Most nodes cache nothing the catalog names and a CPU node has no classes; they share one empty
// value instead of allocating their own, which at thousands of nodes is most of building the fleet.
const NO_SOURCES: ReadonlySet<string> = new Set();
const NO_CLASSES: readonly string[] = [];
const NO_COUNTS: readonly DomainCounts[] = [];
const NO_MARKS: readonly DomainMark[] = [];

function classesOf(cards: readonly PlacementCard[]): readonly string[] {
  if (cards.length === 0) return NO_CLASSES;
  const classes: string[] = [];
  for (const card of cards) if (!classes.includes(card.gpuClass)) classes.push(card.gpuClass);
  return classes;
}

/** Healthy cards of a class that nobody holds on this node; 0 for a class it does not have. */
export function freeOf(usage: NodeUsage, gpuClass: string): number {
  const at = usage.gpuClasses.indexOf(gpuClass);
  return at < 0 ? 0 : (usage.freeCounts[at] as number);
}

function shareOf(memoryGbUsed: number, node: PlacementNode): number {
  return memoryGbUsed / Math.max(node.memoryGbTotal, 1);
}

/** The most any of the cards draws by its own figure; 0 for none. */
export function mostCardWattsOf(cards: readonly PlacementCard[]): number {
  let most = 0;
  for (const card of cards) most = Math.max(most, card.drawWatts ?? 0);
  return most;
}

function indexNode(node: PlacementNode, position: number): NodeUsage {
  const gpuClasses = classesOf(node.cards);
  const freeCounts = gpuClasses.map(() => 0);
  let freeTotal = 0;
  for (const card of node.cards) {
    if (!card.isHealthy) continue;
    const at = gpuClasses.indexOf(card.gpuClass);
    freeCounts[at] = (freeCounts[at] as number) + 1;
    freeTotal += 1;
  }
  return {
    node,
    position,
    gpuClasses,
    soleClass: gpuClasses.length === 1 ? gpuClasses[0] : undefined,
    holders: [],
    freeCounts,
    freeTotal,
    mostCardWatts: mostCardWattsOf(node.cards),
    memoryGbUsed: 0,
    memoryShare: shareOf(0, node),
    cpuCoresUsed: 0,
    replicaCount: 0,
    modelCounts: undefined,
    cachedSources: node.cachedSources?.length ? new Set(node.cachedSources) : NO_SOURCES,
    spreadDomains: spreadDomainsOf(node),
    spreadCounts: NO_COUNTS,
    spreadMarks: NO_MARKS,
    budgetsOf: undefined,
    budgetCell: undefined,
    budgetWatts: 0,
    isShadowed: false,
    nearVisit: 0,
  };
}

function noteClass(classes: Map<string, ClassInfo>, card: PlacementCard): void {
  const known = classes.get(card.gpuClass);
  if (!known) {
    classes.set(card.gpuClass, {
      memoryGb: card.memoryGb,
      computeCapability: card.computeCapability,
    });
    return;
  }
  known.memoryGb = Math.min(known.memoryGb, card.memoryGb);
  known.computeCapability = Math.min(known.computeCapability, card.computeCapability);
}

const isAlike = (a: PlacementCard, b: PlacementCard) =>
  a.gpuClass === b.gpuClass &&
  a.memoryGb === b.memoryGb &&
  a.computeCapability === b.computeCapability;

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function addNode(fleet: Fleet, usage: NodeUsage): void {
  fleet.nodes.push(usage);
  const before = fleet.byId.get(usage.node.id);
  if (before !== undefined) before.isShadowed = true;
  fleet.byId.set(usage.node.id, usage);
  // A node's cards are mostly alike: one alike to the card before it changes no class's minimum.
  let previous: PlacementCard | undefined;
  for (const card of usage.node.cards) {
    if (previous === undefined || !isAlike(card, previous)) noteClass(fleet.classes, card);
    previous = card;
  }
  for (const gpuClass of usage.gpuClasses) pushTo(fleet.nodesByClass, gpuClass, usage);
  if (usage.gpuClasses.length > 1) fleet.multiClassNodes.push(usage);
  for (const source of usage.cachedSources) pushTo(fleet.nodesBySource, source, usage);
  for (const domain of usage.spreadDomains) pushTo(fleet.nodesByDomain, domain, usage);
  if (usage.spreadDomains.length > 0) {
    const counts: DomainCounts[] = [];
    const marks: DomainMark[] = [];
    for (const domain of usage.spreadDomains) {
      counts.push(domainCounts(fleet, domain));
      marks.push(domainMark(fleet, domain));
    }
    usage.spreadCounts = counts;
    usage.spreadMarks = marks;
  }
}

export function buildFleet(
  nodes: readonly PlacementNode[],
  replicas: readonly ExistingReplica[],
): Fleet {
  const domainsByModel = new DomainsByModel();
  const drawCells = createDrawCells();
  const fleet: Fleet = {
    nodes: [],
    byId: new Map(),
    nodesByClass: new Map(),
    classes: new Map(),
    classesByNeed: new Map(),
    classesByNeedRecord: new WeakMap(),
    classLists: new Map(),
    multiClassNodes: [],
    nodesBySource: new Map(),
    cachedByClasses: new WeakMap(),
    nodesByModel: new Map(),
    nodesByDomain: new Map(),
    get drawWattsByDomain() {
      return drawsOf(drawCells);
    },
    drawCells,
    domainModelCounts: new Map(),
    domainsByModel,
    domainsNearModel: new DomainsNearModel(domainsByModel),
    domainMarks: new Map(),
    near: { model: undefined, serial: 0 },
    indexes: { byClass: new Map(), cpu: new Map() },
    version: 0,
    lastModel: undefined,
    resume: { request: undefined, index: undefined, version: 0, free: 0, at: undefined },
    refusals: { version: 0, byShape: new Map() },
  };
  drawCells.owner = fleet;
  nodes.forEach((node, position) => addNode(fleet, indexNode(node, position)));
  for (const replica of replicas) addReplica(fleet, replica);
  return fleet;
}

/** The node's usage as buildFleet makes it, before any replica: in place, keeping its maps. */
function clearUsage(usage: NodeUsage): void {
  const healthy = healthyOf(usage);
  const { perClass } = healthy;
  for (let at = 0; at < perClass.length; at += 1) usage.freeCounts[at] = perClass[at] as number;
  usage.freeTotal = healthy.total;
  // Written over, not cut: an array cut to length 0 loses its storage and allocates it again.
  usage.holders.fill(undefined);
  usage.memoryGbUsed = 0;
  usage.memoryShare = shareOf(0, usage.node);
  usage.cpuCoresUsed = 0;
  usage.replicaCount = 0;
  // Empty counts read as none: every reader asks `has` or `get ?? 0`.
  usage.modelCounts?.clear();
}

/**
 * Takes every replica out of a fleet, leaving it as `buildFleet` over the same nodes and no
 * replicas would: what depends on the nodes alone (their records, classes, domains, sources) is
 * kept; what replicas changed is emptied, and the ordered lists are dropped, to be built again on
 * first use as a new fleet's are.
 */
export function clearFleet(fleet: Fleet): void {
  // By index: run once a pass, this is seldom optimised, and `for…of` unoptimised made a record
  // per node.
  for (let at = 0; at < fleet.nodes.length; at += 1) clearUsage(fleet.nodes[at] as NodeUsage);
  fleet.nodesByModel.clear();
  clearDrawCells(fleet.drawCells);
  // No domain holds a replica now: the next search marks its model's domains under a new serial.
  fleet.near.model = undefined;
  // Each node's spreadCounts are views of these lists, so they read as empty too.
  fleet.domainsByModel.clear();
  fleet.indexes.roleLabel = undefined;
  fleet.indexes.byClass.clear();
  fleet.indexes.cpu.clear();
  fleet.version = 0;
  fleet.lastModel = undefined;
  fleet.resume.request = undefined;
  fleet.resume.index = undefined;
  fleet.resume.at = undefined;
  fleet.refusals = { version: 0, byShape: new Map() };
}

function holdCard(
  usage: NodeUsage,
  cardIndex: number,
  replicaId: string,
  masks: readonly number[] | undefined,
): void {
  if (usage.holders[cardIndex] !== undefined) return;
  usage.holders[cardIndex] = replicaId;
  if (masks !== undefined) {
    // Every card's index is a distinct bit: the card with this one is healthy and of the class
    // whose mask has it, or is not healthy (or not listed) when none has it.
    const bit = cardBit(cardIndex);
    for (let at = 0; bit !== 0 && at < masks.length; at += 1)
      if (((masks[at] as number) & bit) !== 0) {
        usage.freeCounts[at] = (usage.freeCounts[at] as number) - 1;
        usage.freeTotal -= 1;
        return;
      }
    return;
  }
  // The first card with that index, as find would give, by a loop that allocates no closure.
  for (const card of usage.node.cards) {
    if (card.index !== cardIndex) continue;
    if (card.isHealthy) {
      const at = usage.gpuClasses.indexOf(card.gpuClass);
      usage.freeCounts[at] = (usage.freeCounts[at] as number) - 1;
      usage.freeTotal -= 1;
    }
    return;
  }
}

function noteModel(fleet: Fleet, usage: NodeUsage, model: string): void {
  usage.modelCounts ??= new ModelCounts();
  if (usage.modelCounts.add(model) === 0) pushTo(fleet.nodesByModel, model, usage);
}

/**
 * Counts a replica against its nodes; shards on nodes the fleet does not know are ignored. A
 * caller that has the shards' records at hand (`usages`, in shard order) spares their lookups.
 */
export function addReplica(
  fleet: Fleet,
  replica: ExistingReplica,
  usages?: readonly NodeUsage[],
): void {
  fleet.version += 1;
  fleet.lastModel = replica.model;
  const { shards } = replica;
  for (let at = 0; at < shards.length; at += 1) {
    const shard = shards[at] as ReplicaShard;
    const known = usages?.[at];
    const usage = isRecordOf(known, shard.nodeId) ? known : fleet.byId.get(shard.nodeId);
    if (!usage) continue;
    // Out of the ordered lists while its keys change, back in under the new ones.
    unindexNode(fleet.indexes, usage);
    const healthy = healthyOf(usage);
    for (const cardIndex of shard.cardIndexes)
      holdCard(usage, cardIndex, replica.id, healthy.masks);
    noteDraw(fleet, usage, shard.cardIndexes, replica.drawWattsPerCard, healthy);
    usage.memoryGbUsed += replica.memoryGb;
    usage.memoryShare = shareOf(usage.memoryGbUsed, usage.node);
    usage.cpuCoresUsed += replica.cpuCores;
    usage.replicaCount += 1;
    noteModel(fleet, usage, replica.model);
    reindexNode(fleet.indexes, usage);
  }
  noteSpread(fleet, replica, usages);
}

// The free cards a search finds, gathered here and then copied at their final length: pushed onto
// a new array, each shard's list got a backing store of 17 slots for its one or two cards.
const freeScratch: number[] = [];

/**
 * The first `count` free healthy cards of a class on a node, lowest index first. A list of cards
 * 0 to 7 (every card of an 8-card node) is one of the lists shared by every caller (see
 * SHARED_CARD_LISTS), which is why the list is read-only.
 */
export function freeCardIndexes(
  usage: NodeUsage,
  gpuClass: string,
  count: number,
): readonly number[] {
  const { masks } = healthyOf(usage);
  if (masks !== undefined) return freeByMask(usage, masks, gpuClass, count);
  let found = 0;
  for (const card of usage.node.cards)
    if (card.gpuClass === gpuClass && card.isHealthy && usage.holders[card.index] === undefined)
      freeScratch[found++] = card.index;
  // Agents report cards in index order, but nothing guarantees it, and the lowest go first; the
  // check spares the common case the sort.
  if (!isAscending(freeScratch, found)) sortPrefix(freeScratch, found);
  const length = Math.min(found, count);
  const shared = sharedCardList(freeScratch, length);
  if (shared !== undefined) return shared;
  const indexes = new Array<number>(length);
  for (let at = 0; at < length; at += 1) indexes[at] = freeScratch[at] as number;
  return indexes;
}

/**
 * freeCardIndexes by the class's mask of healthy cards: the lowest bits whose cards nobody holds.
 * It reads the holders but not the card records, which a placement would otherwise be the first
 * to touch since the node was indexed.
 */
function freeByMask(
  usage: NodeUsage,
  masks: readonly number[],
  gpuClass: string,
  count: number,
): readonly number[] {
  const at = usage.gpuClasses.indexOf(gpuClass);
  let healthy = at < 0 ? 0 : (masks[at] as number);
  let set = 0;
  let found = 0;
  for (let index = 0; healthy !== 0 && found < count; index += 1, healthy >>>= 1) {
    if ((healthy & 1) === 0 || usage.holders[index] !== undefined) continue;
    set |= 1 << index;
    found += 1;
  }
  return set < 256 ? sharedList(set) : listOfBits(set);
}

/** The cards a set of bits names, lowest first. */
function listOfBits(set: number): number[] {
  const cards: number[] = [];
  for (let index = 0; index <= 30; index += 1) if ((set & (1 << index)) !== 0) cards.push(index);
  return cards;
}

/** The shared list for a set of cards 0 to 7. */
function sharedList(set: number): readonly number[] {
  let list = SHARED_CARD_LISTS[set];
  if (list === undefined) {
    list = listOfBits(set);
    SHARED_CARD_LISTS[set] = list;
  }
  return list;
}

/**
 * Card lists by the set of cards they name (bit i for card i): a placement's list is the largest
 * record it keeps after its action, and an 8-card node has only 256 such lists, so they are made
 * once each and shared by every shard that takes the same cards. Shared, so read-only by type;
 * not frozen, as V8 iterates a frozen array by the slow path (`for…of` over one made a record
 * per card, more than the lists saved).
 */
const SHARED_CARD_LISTS: (readonly number[] | undefined)[] = new Array<undefined>(256).fill(
  undefined,
);

/**
 * The shared list equal to the first `length` of `indexes` (ascending), or undefined when one of
 * them is not a card 0 to 7 or comes twice (such lists are made per call, as before).
 */
function sharedCardList(indexes: readonly number[], length: number): readonly number[] | undefined {
  let set = 0;
  for (let at = 0; at < length; at += 1) {
    const index = indexes[at] as number;
    if (!(index >= 0 && index <= 7 && Number.isInteger(index))) return undefined;
    const bit = 1 << index;
    if ((set & bit) !== 0) return undefined;
    set |= bit;
  }
  return sharedList(set);
}

/** Sorts the first `length` values in place (an insertion sort: a node has a handful of cards). */
function sortPrefix(values: number[], length: number): void {
  for (let at = 1; at < length; at += 1) {
    const value = values[at] as number;
    let to = at;
    for (; to > 0 && (values[to - 1] as number) > value; to -= 1)
      values[to] = values[to - 1] as number;
    values[to] = value;
  }
}

function isAscending(values: readonly number[], length: number): boolean {
  for (let at = 1; at < length; at += 1)
    if ((values[at - 1] as number) > (values[at] as number)) return false;
  return true;
}
