// The shapes placement keeps while it works: what each node has left (NodeUsage), the fleet built
// from them (Fleet), and the candidate lists ordered by score (CandidateIndexes). They live apart
// from the code that builds and updates them so that fleet.ts, node-index.ts and sorted-nodes.ts
// import them without importing each other in a circle.
import type { GpuNeed } from "../catalog/gpu-need";
import type { DomainCounts, DomainsByModel, DomainsNearModel } from "./domain-counts";
import type { ModelCounts } from "./model-counts";
import type { NodeRejection, PlacementNode, PlacementRequest, PowerBudget } from "./types";

export interface NodeUsage {
  node: PlacementNode;
  /** The node's place in the input: the last tie-break, so the same input gives the same answer. */
  position: number;
  /** The classes of the node's cards (healthy or not), each once, in card order. */
  gpuClasses: readonly string[];
  /** The node's only GPU class; absent for a CPU node and for one with cards of several. */
  soleClass?: string;
  /** Card index → the replica holding it; an array, as a node has a handful of cards. */
  holders: (string | undefined)[];
  /**
   * Healthy cards nobody holds, per class, in `gpuClasses` order (read it with freeOf). An array
   * beside the classes rather than a map: a node has one class or two, and thousands of small
   * maps were a large share of what a pass allocates and the collector then copies.
   */
  freeCounts: number[];
  /** The sum of freeCounts, kept as cards are held: the class index's bucket. */
  freeTotal: number;
  /** Healthy cards per class of `node` as emptying the record counts them; see clearFleet. */
  healthy?: HealthyCards;
  /**
   * The most any of the node's cards draws by its own figure (0 for none): with the request's
   * declared draw, a bound on what its cards add, so the power check decides most nodes without
   * reading their cards.
   */
  mostCardWatts: number;
  memoryGbUsed: number;
  /** memoryGbUsed over the node's memory, kept as it changes: the CPU index compares it often. */
  memoryShare: number;
  cpuCoresUsed: number;
  replicaCount: number;
  /** Replicas per model on this node; absent until the first, as most nodes hold few models. */
  modelCounts?: ModelCounts;
  cachedSources: ReadonlySet<string>;
  /** The node's rack and PDU as `rack=r12`, `pdu=p7`: the domains replicas spread across. */
  spreadDomains: readonly string[];
  /**
   * Replicas per model in each of `spreadDomains`, in the same order: the fleet's own counts for
   * those domains, shared by every node in them, so asking whether a node's rack or PDU holds a
   * model reads the node and one map, not the fleet's maps by the domain's name.
   */
  spreadCounts: readonly DomainCounts[];
  /** The marks of `spreadDomains`, in the same order, shared like spreadCounts (see NearModel). */
  spreadMarks: readonly DomainMark[];
  /**
   * The power budgets `budgetCell` was taken for (the node's own list, by identity): while the
   * node names this list and it holds one budget, the power check reads the cell and
   * `budgetWatts` instead of looking the domain up by name. Undefined until the check first asks.
   */
  budgetsOf: readonly PowerBudget[] | undefined;
  /** The draw of the node's one budgeted domain; undefined for a node with none or several. */
  budgetCell: DrawCell | undefined;
  /** That budget's watts. */
  budgetWatts: number;
  /** Another node of the same id came later in the input: `byId` finds that one, not this. */
  isShadowed: boolean;
  /** The last nodesNearModel call that listed the node (see spread.ts); 0 before any. */
  nearVisit: number;
}

/** A budgeted domain's draw in watts, shared by its nodes (see draw-cells.ts). */
export interface DrawCell {
  domain: string;
  watts: number;
  /** Changed since the map was last written: in DrawCells.pending. */
  isPending: boolean;
}

/** The fleet's draws as cells, and the map by domain they write into when it is read. */
export interface DrawCells {
  of: Map<string, number>;
  byDomain: Map<string, DrawCell>;
  /** The cells changed since `of` was last written, in the order first changed; the first `size`. */
  pending: DrawCell[];
  size: number;
  /** The fleet they are the draws of: a view spread from it, with other draws, is not. */
  owner: Fleet | undefined;
}

/** A spread domain's mark: equal to NearModel.serial while it holds a replica of NearModel.model. */
export interface DomainMark {
  stamp: number;
  /** While marked: the domain's place in the model's lists (ModelDomains) and its count there. */
  at: number;
  count: number;
}

/**
 * The model whose racks and PDUs are marked now. A search asks of every node it visits whether
 * its rack or PDU holds the request's model: two map lookups per node, over maps spread across a
 * large heap. Marking that model's domains once (a handful) makes each ask two reads of the node's
 * marks; a search for another model marks again under a new serial, and counting a replica into
 * a domain marks it at once while its model is the one marked.
 */
interface NearModel {
  model: string | undefined;
  serial: number;
}

/** Healthy cards per class, in `gpuClasses` order, with their sum and the record they count. */
export interface HealthyCards {
  perClass: readonly number[];
  total: number;
  /**
   * Per class, in `gpuClasses` order, the healthy cards as bits (bit i: card i), so the cards a
   * placement takes are found without reading the card records; undefined when a card's index is
   * not an integer 0 to 30 or is listed twice.
   */
  masks: readonly number[] | undefined;
  /** Every card listed, healthy or not, as bits; 0 when `masks` is undefined. */
  listed: number;
  /**
   * The draw every card has by its own figure (`drawWatts`, 0 for none) when all have the same
   * and `masks` is defined; undefined otherwise. A placement's draw is then a product, its cards
   * unread.
   */
  drawAlike: number | undefined;
  of: PlacementNode;
}

export interface ClassInfo {
  memoryGb: number;
  computeCapability: number;
}

export interface Refusal {
  summary: string;
  rejections: NodeRejection[];
}

export interface Fleet {
  nodes: NodeUsage[];
  byId: Map<string, NodeUsage>;
  /** Which nodes have at least one card of a class: the candidates for a profile naming it. */
  nodesByClass: Map<string, NodeUsage[]>;
  /** The smallest memory and capability seen for a class, to resolve a need to classes. */
  classes: Map<string, ClassInfo>;
  /** A need (memory/capability) → the classes meeting it, most fitting first; filled on use. */
  classesByNeed: Map<string, readonly string[]>;
  /**
   * The same lists by the need's own record, which a profile keeps from pass to pass: found
   * without making the key, a string per search.
   */
  classesByNeedRecord: WeakMap<GpuNeed, readonly string[]>;
  /** A class named by a request → the one-class list placement reads; filled on use. */
  classLists: Map<string, readonly string[]>;
  /** Nodes with cards of more than one class; rare, so the search weighs each one on its own. */
  multiClassNodes: NodeUsage[];
  /** Nodes holding a source's weights, which score better for it than the ordered index says. */
  nodesBySource: Map<string, NodeUsage[]>;
  /**
   * For a list of classes (as classesFor hands it out, by identity), per source: the nodes of
   * nodesBySource with a card of one of the classes, in the same order. A search weighs every node
   * caching its weights; at fleet scale a third of them had no card of its class. Made on first
   * use; it depends on the nodes alone, so it lasts as long as the fleet's other node lists.
   */
  cachedByClasses: WeakMap<readonly string[], Map<string, readonly NodeUsage[]>>;
  /** Nodes holding a replica of a model, which score worse for it than the index says. */
  nodesByModel: Map<string, NodeUsage[]>;
  /**
   * Budgeted domain (`rack=r12`) → the watts its held cards draw: on a fleet buildFleet made, a
   * getter bringing the map up to date from `drawCells`; a view may hold a map of its own.
   */
  readonly drawWattsByDomain: Map<string, number>;
  /** The fleet's own draws, as cells its nodes' records point at (see draw-cells.ts). */
  drawCells: DrawCells;
  /** Spread domain (`rack=r12`) → its nodes. */
  nodesByDomain: Map<string, NodeUsage[]>;
  /** Spread domain → replicas per model in it: a view of domainsByModel. */
  domainModelCounts: Map<string, DomainCounts>;
  /** Model → the racks and PDUs holding its replicas, with how many each: the spread counts. */
  domainsByModel: DomainsByModel;
  /**
   * Model → the racks and PDUs holding a replica of it: their nodes score worse for it than the
   * index says. Domains, not their nodes: a replica marks two names, not every node of its rack.
   * A view of domainsByModel's lists.
   */
  domainsNearModel: DomainsNearModel;
  /** Spread domain → its mark, made with its counts and shared by its nodes. */
  domainMarks: Map<string, DomainMark>;
  near: NearModel;
  /** Candidate lists ordered by score, built on first use and kept current by addReplica. */
  indexes: CandidateIndexes;
  /** Bumped by every change, so a cached refusal is reused only while nothing has moved. */
  version: number;
  /** The model of the replica added last (see SearchResume). */
  lastModel: string | undefined;
  /** Where the last search through a class's ordered lists stopped; see search.ts. */
  resume: SearchResume;
  /** Refusals already explained at `version`, by request shape. */
  refusals: { version: number; byShape: Map<string, Refusal> };
}

/**
 * Where a search for one node through a class's ordered lists stopped: every node it passed
 * before `at` (in bucket `free`) was refused or set apart. A model's asks come one after another
 * with the same request, and what changes between them is a replica of that model added: its
 * nodes then hold the model and its racks and PDUs are near it (set apart), and it only takes
 * cards, memory, cores and watts. So nothing passed over can pass for the next ask, which starts
 * here instead of at the front; at 10,000 nodes the front of the lists is the model's own racks.
 */
export interface SearchResume {
  request: PlacementRequest | undefined;
  index: OrderedNodes | undefined;
  /** The fleet's version when the search ran. */
  version: number;
  free: number;
  /** The node the search stopped at; undefined when it read every list to the end. */
  at: NodeUsage | undefined;
}

/**
 * Nodes grouped into buckets by the score term that matters most after "holds this model
 * already", each bucket sorted by the terms that break its ties. Reading bucket 0, 1, 2… from the
 * front visits nodes best first for any request that neither the model nor cached weights set apart.
 */
export interface OrderedNodes {
  bucketOf(usage: NodeUsage): number;
  compare(a: NodeUsage, b: NodeUsage): number;
  buckets: (SortedNodes | undefined)[];
}

/**
 * Every list is kept per role (the value of the policy's role label, "" for none): a node with a
 * role takes only requests asking for it, and a request asking for a role only nodes with it, so
 * a search reads only its own role's nodes. Read together, a few hundred judge nodes sat at the
 * front of the lists every other request read, refused each time, and a pass grew with the fleet's
 * square.
 */
export interface CandidateIndexes {
  /** The label the lists are split by; a request under another policy rebuilds them. */
  roleLabel?: string;
  /** GPU class → role → its single-class nodes, bucketed by free cards (fullest fitting first). */
  byClass: Map<string, Map<string, OrderedNodes>>;
  /**
   * Role → every reachable node, those without cards in one list and those with cards in
   * another, each bucketed by replica count, then by memory share: CPU replicas keep off GPU
   * nodes while they can, and spread.
   */
  cpu: Map<string, CpuLists>;
}

/**
 * The CPU lists of one role. The list of nodes with cards is built only when a CPU request finds
 * too few nodes without cards, which at fleet scale is rare: built with the other, it was sorted
 * once per pass and then kept in order through every GPU placement (each moves a node with cards)
 * for no reader.
 */
export interface CpuLists {
  withoutCards: OrderedNodes;
  withCards?: OrderedNodes;
}

export interface SortedNodes {
  /** Strict: no two distinct nodes compare equal (position breaks every tie). */
  compare(a: NodeUsage, b: NodeUsage): number;
  blocks: NodeUsage[][];
}
