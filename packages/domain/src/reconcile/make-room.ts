// Making room for a replica that cannot be placed by stopping others: the machinery shared by
// taking borrowed capacity back and by evicting idle replicas. Which replicas may go, in what
// order, and what the new replica must satisfy are the caller's; this finds the node where the
// fewest, least valued of them free enough, stops them, and leaves the placement to a later
// pass, once the node has given the cards back (the cards stay held in this pass's index, so
// nothing else is placed on them meanwhile).
import type { ModelProfile } from "../catalog/model-definition";
import { classesFor } from "../placement/predicates";
import { roomOnNode, type NodeRoom } from "../placement/room";
import { placementRequestFor } from "../placement/request";
import { DEFAULT_PLACEMENT_POLICY, type ReplicaShard } from "../placement/types";
import { isNodeLost } from "./nodes";
import { existingOf, type PassState, type RoomState } from "./pass-state";
import type { DesiredModel, ObservedReplica, ReconcileAction } from "./types";

export interface RoomAsk {
  model: DesiredModel;
  /** The replicas that may be taken for anyone, by node (see candidatesByNode); few, usually. */
  candidates: ReadonlyMap<string, readonly ObservedReplica[]>;
  /** Whether one of the candidates may be stopped for this ask. */
  mayTake(replica: ObservedReplica): boolean;
  /** Which to give up first: negative when `a` goes before `b`. */
  order(a: ObservedReplica, b: ObservedReplica): number;
  /** How much a replica is worth keeping; among nodes, the one whose dearest loss is least wins. */
  worth(replica: ObservedReplica): number;
  /** Whether the new replica on this shard may be placed at all (guarantee, limit). */
  admits(profile: ModelProfile, shard: ReplicaShard): boolean;
  /** The stop reason for room found on this shard, naming who needed it. */
  reasonFor(profile: ModelProfile, shard: ReplicaShard): string;
}

export function roomOf(state: PassState): RoomState {
  state.room ??= {
    existingById: new Map(existingOf(state).map((replica) => [replica.id, replica])),
    taken: new Set(),
    usedNodes: new Set(),
  };
  return state.room;
}

/**
 * The live replicas passing `isCandidate`, by node: one walk over the pass's replicas, so each
 * ask afterwards looks only at nodes holding something it could take.
 */
export function candidatesByNode(
  state: PassState,
  isCandidate: (replica: ObservedReplica) => boolean,
): Map<string, ObservedReplica[]> {
  const byNode = new Map<string, ObservedReplica[]>();
  for (const replica of state.input.replicas) {
    if (replica.phase === "stopped" || replica.phase === "failed" || !isCandidate(replica))
      continue;
    const list = byNode.get(replica.nodeId);
    if (list) list.push(replica);
    else byNode.set(replica.nodeId, [replica]);
  }
  return byNode;
}

interface Choice {
  room: NodeRoom;
  taken: ObservedReplica[];
  worst: number;
}

const better = (a: Choice, b: Choice | undefined): boolean =>
  !b || a.worst < b.worst || (a.worst === b.worst && a.taken.length < b.taken.length);

function bestRoom(state: PassState, room: RoomState, ask: RoomAsk, profile: ModelProfile) {
  const fleet = state.fleet;
  if (!fleet || profile.nodes !== 1) return undefined;
  const policy = state.input.policy.placement ?? DEFAULT_PLACEMENT_POLICY;
  const request = placementRequestFor(ask.model.definition, profile, "room");
  const classes = request.gpu === undefined ? [] : classesFor(request, fleet);
  let best: Choice | undefined;
  for (const [nodeId, replicas] of ask.candidates) {
    if (room.usedNodes.has(nodeId)) continue;
    // Most nodes lack the class asked for; they are passed over before anything is sorted.
    const usage = fleet.byId.get(nodeId);
    if (!usage || (classes.length > 0 && !classes.some((c) => usage.gpuClasses.includes(c))))
      continue;
    if (isNodeLost(state.nodesById.get(nodeId), state.input.nowMs, state.input.policy)) continue;
    const candidates = replicas
      .filter((r) => !room.taken.has(r.id) && !state.stopped.has(r.id) && ask.mayTake(r))
      .sort(ask.order);
    const existing = candidates.flatMap((r) => room.existingById.get(r.id) ?? []);
    if (existing.length === 0) continue;
    const found = roomOnNode(fleet, policy, request, nodeId, existing);
    if (!found || !ask.admits(profile, found.shard)) continue;
    const ids = new Set(found.leaving.map((r) => r.id));
    const taken = candidates.filter((r) => ids.has(r.id));
    const choice = { room: found, taken, worst: Math.max(...taken.map(ask.worth)) };
    if (better(choice, best)) best = choice;
  }
  return best;
}

/**
 * Stops the replicas that make room for one replica of the ask's model, trying its profiles in
 * order, and answers them (the model is placed in a later pass); none when no node could be freed.
 */
export function makeRoom(
  state: PassState,
  ask: RoomAsk,
  actions: ReconcileAction[],
): ObservedReplica[] {
  const room = roomOf(state);
  for (const profile of ask.model.definition.profiles) {
    const best = bestRoom(state, room, ask, profile);
    if (!best) continue;
    room.usedNodes.add(best.room.shard.nodeId);
    const reason = ask.reasonFor(profile, best.room.shard);
    for (const replica of best.taken) {
      room.taken.add(replica.id);
      actions.push({
        kind: "stop",
        model: replica.model,
        replicaId: replica.id,
        nodeId: replica.nodeId,
        reason,
      });
    }
    return best.taken;
  }
  return [];
}

/**
 * Whether stopping the ask's candidates would free room on some node for one replica of its
 * model; stops nothing (a what-if for a restart waiting on others).
 */
export function roomWouldBeFreed(state: PassState, ask: RoomAsk): boolean {
  const room = roomOf(state);
  return ask.model.definition.profiles.some(
    (profile) => bestRoom(state, room, ask, profile) !== undefined,
  );
}
