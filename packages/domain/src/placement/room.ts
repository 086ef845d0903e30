// What-if placement on one node: would a replica fit there if some replicas gave back what they
// hold? Taking borrowed capacity back and evicting idle replicas ask it to stop as few replicas as
// the room needs, and only where the same checks placement runs would then pass.
import { freeCardIndexes } from "./fleet";
import type { Fleet, NodeUsage } from "./fleet-types";
import { drawWithout } from "./power";
import { classesFor, nodeFits } from "./predicates";
import type { ExistingReplica, PlacementPolicy, PlacementRequest, ReplicaShard } from "./types";

/** The node's usage as it would be without `leaving` (their shards on this node). */
function usageWithout(usage: NodeUsage, leaving: readonly ExistingReplica[]): NodeUsage {
  const holders = [...usage.holders];
  const freeCounts = [...usage.freeCounts];
  let freeTotal = usage.freeTotal;
  let memoryGbUsed = usage.memoryGbUsed;
  let cpuCoresUsed = usage.cpuCoresUsed;
  for (const replica of leaving) {
    for (const shard of replica.shards) {
      if (shard.nodeId !== usage.node.id) continue;
      memoryGbUsed -= replica.memoryGb;
      cpuCoresUsed -= replica.cpuCores;
      for (const index of shard.cardIndexes) {
        if (holders[index] !== replica.id) continue;
        holders[index] = undefined;
        const card = usage.node.cards.find((c) => c.index === index);
        if (!card?.isHealthy) continue;
        const at = usage.gpuClasses.indexOf(card.gpuClass);
        freeCounts[at] = (freeCounts[at] ?? 0) + 1;
        freeTotal += 1;
      }
    }
  }
  const memoryShare = memoryGbUsed / Math.max(usage.node.memoryGbTotal, 1);
  return { ...usage, holders, freeCounts, freeTotal, memoryGbUsed, memoryShare, cpuCoresUsed };
}

/** The shard the request would take on the node were `leaving` gone, or null when it would not fit. */
function shardWithout(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  usage: NodeUsage,
  leaving: readonly ExistingReplica[],
): ReplicaShard | null {
  const after = usageWithout(usage, leaving);
  const classes = classesFor(request, fleet);
  // The power check reads the fleet's draw: without the leaving replicas' watts, or they would
  // count beside the replica taking their cards.
  const budgeted = leaving.length > 0 && (usage.node.powerBudgets?.length ?? 0) > 0;
  const view = budgeted ? { ...fleet, drawWattsByDomain: drawWithout(fleet, leaving) } : fleet;
  if (!nodeFits({ request, usage: after, policy, classes, fleet: view })) return null;
  if (request.gpu === undefined) return { nodeId: usage.node.id, cardIndexes: [] };
  const gpuClass = classes.find(
    (c) => freeCardIndexes(after, c, request.gpus).length >= request.gpus,
  );
  if (gpuClass === undefined) return null;
  return { nodeId: usage.node.id, cardIndexes: freeCardIndexes(after, gpuClass, request.gpus) };
}

export interface NodeRoom {
  /** The replicas that must go, in the order the caller ranked them. */
  leaving: ExistingReplica[];
  shard: ReplicaShard;
}

/**
 * The fewest of `candidates` (ranked: the first is the one to give up first) whose leaving lets a
 * single-node request fit on the node, or null when even all of them would not. Candidates are
 * added in rank order until it fits, then each is tried back from the most valued down, so one
 * whose room turned out not to matter stays.
 */
export function roomOnNode(
  fleet: Fleet,
  policy: PlacementPolicy,
  request: PlacementRequest,
  nodeId: string,
  candidates: readonly ExistingReplica[],
): NodeRoom | null {
  const usage = fleet.byId.get(nodeId);
  // A node with room already needs nothing taken; placement refused it for another reason.
  if (!usage || request.nodes !== 1 || shardWithout(fleet, policy, request, usage, [])) return null;
  const leaving: ExistingReplica[] = [];
  let shard: ReplicaShard | null = null;
  for (const candidate of candidates) {
    leaving.push(candidate);
    shard = shardWithout(fleet, policy, request, usage, leaving);
    if (shard) break;
  }
  if (!shard) return null;
  for (let at = leaving.length - 1; at >= 0 && leaving.length > 1; at -= 1) {
    const fewer = leaving.filter((_, index) => index !== at);
    const kept = shardWithout(fleet, policy, request, usage, fewer);
    if (!kept) continue;
    leaving.splice(at, 1);
    shard = kept;
  }
  return { leaving, shard };
}
