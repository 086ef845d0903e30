// Placement: a pure function from (request, nodes, replicas, policy) to a choice of node and
// cards, or to the reasons each node refused. `placeReplicas` places many in one pass over an
// index built once, which is what a reconcile pass over thousands of replicas needs.
import { addReplica, buildFleet, freeCardIndexes } from "./fleet";
import { healthyOf } from "./healthy-cards";
import type { Fleet, NodeUsage, Refusal } from "./fleet-types";
import { allFailures, classesFor, type NodeCheck } from "./predicates";
import { keptWithinFits, keptWithinShortfall } from "./keep-within";
import type { Fit, KeptFits } from "./kept-fits";
import { bestFits, keptFits } from "./search";
import {
  DEFAULT_PLACEMENT_POLICY,
  type NodeRejection,
  type PlacementInput,
  type PlacementPolicy,
  type PlacementRequest,
  type PlacementResult,
  type ReplicaShard,
} from "./types";

const FAILURE_WORDS: Record<string, string> = {
  reachable: "unreachable",
  held: "held or cordoned",
  engine: "without the engine",
  role: "kept for another role",
  selector: "not matching the node_selector",
  cards: "without enough free cards",
  memory: "without enough memory",
  cpu: "without enough CPU cores",
  disk: "without enough disk",
  domain: "without the keep_within domain label",
  power: "over a power budget",
};

/** A CPU replica's cards: one list for all, read-only as the card lists placement hands out are. */
const NO_CARDS: readonly number[] = [];

function shardOn(fit: Fit, gpus: number): ReplicaShard {
  const cardIndexes =
    fit.gpuClass === undefined ? NO_CARDS : freeCardIndexes(fit.usage, fit.gpuClass, gpus);
  return { nodeId: fit.usage.node.id, cardIndexes };
}

/** See ChosenNodes.cardClasses. */
function cardClassOf(fit: Fit): string | undefined {
  const { usage } = fit;
  if (fit.gpuClass === undefined || usage.isShadowed) return undefined;
  return healthyOf(usage).masks === undefined ? undefined : fit.gpuClass;
}

/** Every node's reasons, in input order; nodes that fit are left out. */
export function rejectionsFor(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
): NodeRejection[] {
  const classes = classesFor(request, fleet);
  const rejections: NodeRejection[] = [];
  for (const usage of fleet.nodes) {
    const { failed, reasons } = allFailures({
      request,
      usage,
      policy,
      classes,
      fleet,
    } satisfies NodeCheck);
    if (failed.length > 0)
      rejections.push({ nodeId: usage.node.id, nodeName: usage.node.name, failed, reasons });
  }
  return rejections;
}

function summarise(
  request: PlacementRequest,
  rejections: NodeRejection[],
  fitting: number,
): string {
  const subject = `model "${request.model}" profile "${request.profile}"`;
  if (rejections.length === 0 && fitting === 0) return `${subject}: no nodes are registered`;
  const counts = new Map<string, number>();
  for (const rejection of rejections) {
    const first = rejection.failed[0] ?? "";
    counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  const groups = [...counts].map(([name, n]) => `${n} ${FAILURE_WORDS[name] ?? name}`).join(", ");
  const need =
    request.nodes > 1
      ? `needs ${request.nodes} nodes and ${fitting} fit`
      : "no node can take a replica";
  return `${subject}: ${need} (${groups})`;
}

const listOf = (fits: Fit[]): KeptFits => ({ fits, size: fits.length });

// The shards of a multi-node replica must be alike, so its nodes are chosen one class at a time,
// most fitting class first. The common case answers with the list the search writes over (see
// KeptFits), which placeOne reads before any other search.
function chooseFits(fleet: Fleet, policy: PlacementPolicy, request: PlacementRequest): KeptFits {
  const classes = classesFor(request, fleet);
  if (request.keepWithin !== undefined && request.nodes > 1)
    return listOf(keptWithinFits(fleet, policy, request, classes, request.keepWithin));
  if (request.nodes === 1 || classes.length <= 1) return keptFits(fleet, policy, request, classes);
  let most: Fit[] = [];
  for (const gpuClass of classes) {
    // Copied: the best class so far is kept across the next class's search.
    const fits = bestFits(fleet, policy, request, [gpuClass]);
    if (fits.length >= request.nodes) return listOf(fits);
    if (fits.length > most.length) most = fits;
  }
  return listOf(most);
}

/** Everything about a request but its replica id: what its refusal depends on besides the fleet. */
function shapeOf(policy: PlacementPolicy, request: PlacementRequest): string {
  const { replicaId: _replicaId, ...shape } = request;
  // Numbers are tagged so NaN and Infinity, which JSON writes alike as null, stay apart.
  return JSON.stringify([policy.roleLabel, shape], (_key, value: unknown) =>
    typeof value === "number" ? `#${value}` : value,
  );
}

// A pass often asks for many replicas of one model that cannot be placed. While nothing has been
// placed in between, each gets the same answer, so the reasons for every node are built once.
function refusalFor(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  fitting: number,
): Refusal {
  if (fleet.refusals.version !== fleet.version)
    fleet.refusals = { version: fleet.version, byShape: new Map() };
  const shape = shapeOf(policy, request);
  const known = fleet.refusals.byShape.get(shape);
  if (known) return known;
  const rejections = rejectionsFor(fleet, policy, request);
  const refusal = { summary: summarise(request, rejections, fitting), rejections };
  fleet.refusals.byShape.set(shape, refusal);
  return refusal;
}

/** The node records a placement chose, one per shard, written over by each placement. */
export interface ChosenNodes {
  usages: NodeUsage[];
  /** How many shards were placed; on a refusal, how many nodes fit (fewer than asked). */
  size: number;
  /** The class of the cards chosen; undefined for a CPU replica or a refusal. */
  gpuClass?: string | undefined;
  /**
   * Where given, written per shard: the class of every card the shard takes, when that is the
   * class of the node's only card with each of those indexes (its cards' indexes are distinct,
   * see HealthyCards.masks, and no later node shares its id); undefined where the cards must be
   * read to tell, and for a CPU shard.
   */
  cardClasses?: (string | undefined)[];
}

/**
 * Places one request on the fleet (without adding it): its shards, with the records of the nodes
 * chosen and the class in `chosen`, or undefined when too few nodes fit (`chosen.size` of them;
 * `refusedResult` says why). No result record is made: the reconciler's pass makes its action
 * from the shards, and a record per placement that nothing kept was garbage for the collector.
 */
export function placeShards(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  chosen: ChosenNodes,
): ReplicaShard[] | undefined {
  const { fits, size } = chooseFits(fleet, policy, request);
  chosen.size = size;
  chosen.gpuClass = undefined;
  if (size < request.nodes) return undefined;
  // A loop into a list of the final length: `map` made a closure per placement for `gpus`.
  const shards = new Array<ReplicaShard>(size);
  for (let at = 0; at < size; at += 1) {
    const fit = fits[at] as Fit;
    shards[at] = shardOn(fit, request.gpus);
    chosen.usages[at] = fit.usage;
    if (chosen.cardClasses !== undefined) chosen.cardClasses[at] = cardClassOf(fit);
  }
  if (size > 0) chosen.gpuClass = (fits[0] as Fit).gpuClass;
  return shards;
}

/** Why a request placeShards could not place was refused, with every node's reasons. */
export function refusedResult(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  fitting: number,
): PlacementResult & { ok: false } {
  const refusal = refusalFor(fleet, policy, request, fitting);
  const summary =
    request.keepWithin !== undefined && request.nodes > 1
      ? `model "${request.model}" profile "${request.profile}": ${keptWithinShortfall(fleet, policy, request, classesFor(request, fleet), request.keepWithin)}`
      : refusal.summary;
  return {
    ok: false,
    replicaId: request.replicaId,
    summary,
    rejections: [...refusal.rejections],
  };
}

/**
 * The records placeOne writes over when its caller wants none; it keeps the last placement's node
 * records, as the fleet index holding them does.
 */
const OWN_CHOSEN: ChosenNodes = { usages: [], size: 0 };

/**
 * Places one request on the fleet (without adding it). A caller passing `chosen` gets the records
 * of the nodes chosen, one per shard, so adding the replica needs no lookup of them by id.
 */
export function placeOne(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  chosen: ChosenNodes = OWN_CHOSEN,
): PlacementResult {
  const shards = placeShards(fleet, policy, request, chosen);
  if (shards === undefined) return refusedResult(fleet, policy, request, chosen.size);
  const { gpuClass } = chosen;
  return gpuClass === undefined
    ? { ok: true, replicaId: request.replicaId, shards }
    : { ok: true, replicaId: request.replicaId, shards, gpuClass };
}

/**
 * Places each request in order; a placed replica holds its cards, memory and cores for the
 * requests after it, so one pass never hands the same card out twice.
 */
export function placeReplicas(
  input: PlacementInput,
  requests: readonly PlacementRequest[],
): PlacementResult[] {
  // A pass with nothing to place is the common case once a fleet has settled; it builds nothing.
  if (requests.length === 0) return [];
  const policy = input.policy ?? DEFAULT_PLACEMENT_POLICY;
  const fleet = buildFleet(input.nodes, input.replicas);
  return requests.map((request) => {
    const result = placeOne(fleet, policy, request);
    if (result.ok) {
      addReplica(fleet, {
        id: request.replicaId,
        model: request.model,
        shards: result.shards,
        memoryGb: request.memoryGb,
        cpuCores: request.cpuCores,
        drawWattsPerCard: request.drawWattsPerCard,
      });
    }
    return result;
  });
}

export function placeReplica(input: PlacementInput, request: PlacementRequest): PlacementResult {
  return placeReplicas(input, [request])[0] as PlacementResult;
}
