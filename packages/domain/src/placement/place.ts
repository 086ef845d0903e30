// Placement: a pure function from (request, nodes, replicas, policy) to a choice of node and
// cards, or to the reasons each node refused. `placeReplicas` places many in one pass over an
// index built once, which is what a reconcile pass over thousands of replicas needs.
import { addReplica, buildFleet, freeCardsOf, type Fleet, type NodeUsage } from "./fleet";
import { allFailures, classesFor, firstFailure, type NodeCheck } from "./predicates";
import { classOnNode, compareScores, scoreNode, type Score } from "./score";
import {
  DEFAULT_PLACEMENT_POLICY,
  type NodeRejection,
  type PlacementInput,
  type PlacementPolicy,
  type PlacementRequest,
  type PlacementResult,
  type ReplicaShard,
} from "./types";

interface Fit {
  usage: NodeUsage;
  gpuClass: string | undefined;
  score: Score;
}

const FAILURE_WORDS: Record<string, string> = {
  reachable: "unreachable",
  engine: "without the engine",
  role: "kept for another role",
  selector: "not matching the node_selector",
  cards: "without enough free cards",
  memory: "without enough memory",
  cpu: "without enough CPU cores",
  disk: "without enough disk",
};

function candidatesFor(
  fleet: Fleet,
  request: PlacementRequest,
  classes: readonly string[],
): NodeUsage[] {
  if (request.gpu === undefined) return fleet.nodes;
  if (classes.length === 1) return fleet.nodesByClass.get(classes[0] as string) ?? [];
  const union = new Set<NodeUsage>();
  for (const gpuClass of classes)
    for (const usage of fleet.nodesByClass.get(gpuClass) ?? []) union.add(usage);
  return [...union];
}

function fitsFor(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  classes: readonly string[],
): Fit[] {
  const fits: Fit[] = [];
  let best: Fit | undefined;
  for (const usage of candidatesFor(fleet, request, classes)) {
    if (firstFailure({ request, usage, policy, classes }) !== undefined) continue;
    const gpuClass =
      request.gpu === undefined ? undefined : classOnNode(usage, classes, request.gpus);
    const fit = { usage, gpuClass, score: scoreNode(usage, request, gpuClass, fleet) };
    // One node needs only the best; several need the best few, so only then is a list kept.
    if (request.nodes > 1) fits.push(fit);
    else if (!best || compareScores(fit.score, best.score) < 0) best = fit;
  }
  if (request.nodes > 1)
    return fits.sort((a, b) => compareScores(a.score, b.score)).slice(0, request.nodes);
  return best ? [best] : [];
}

function shardOn(fit: Fit, gpus: number): ReplicaShard {
  const cardIndexes =
    fit.gpuClass === undefined
      ? []
      : freeCardsOf(fit.usage, fit.gpuClass)
          .slice(0, gpus)
          .map((card) => card.index);
  return { nodeId: fit.usage.node.id, cardIndexes };
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

// The shards of a multi-node replica must be alike, so its nodes are chosen one class at a time,
// most fitting class first.
function chooseFits(fleet: Fleet, policy: PlacementPolicy, request: PlacementRequest): Fit[] {
  const classes = classesFor(request, fleet);
  if (request.nodes === 1 || classes.length <= 1) return fitsFor(fleet, policy, request, classes);
  let most: Fit[] = [];
  for (const gpuClass of classes) {
    const fits = fitsFor(fleet, policy, request, [gpuClass]);
    if (fits.length >= request.nodes) return fits;
    if (fits.length > most.length) most = fits;
  }
  return most;
}

export function placeOne(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
): PlacementResult {
  const fits = chooseFits(fleet, policy, request);
  if (fits.length < request.nodes) {
    const rejections = rejectionsFor(fleet, policy, request);
    return {
      ok: false,
      replicaId: request.replicaId,
      summary: summarise(request, rejections, fits.length),
      rejections,
    };
  }
  const shards = fits.map((fit) => shardOn(fit, request.gpus));
  const gpuClass = fits[0]?.gpuClass;
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
      });
    }
    return result;
  });
}

export function placeReplica(input: PlacementInput, request: PlacementRequest): PlacementResult {
  return placeReplicas(input, [request])[0] as PlacementResult;
}
