// Evicting idle replicas for a more important model that cannot otherwise be placed.
//
// A replica may be evicted when all of these hold: it is on demand, or borrowed (its model has an
// owner and no scope of the owner chain's guarantees covers it); it is ready and has lived past
// its model's min_lifetime_ms; it serves nothing (in flight is not above 0); it is known to be
// idle, its last use at least evictAfterIdleMs ago (an unknown last use is never idle); and the
// model asking is of a higher priority class, or both are on demand and of the same class. Never
// a replica within its owner's guarantee. The least important go first, then the longest idle.
import { PRIORITY_CLASSES } from "../catalog/model-definition";
import { candidatesByNode, makeRoom, roomOf } from "./make-room";
import type { PassState } from "./pass-state";
import { limitRefusal, releaseStopped } from "./quota-pass";
import { guaranteedReplicas } from "./guarantees";
import type { DesiredModel, ObservedReplica, ReconcileAction } from "./types";

const DEFAULT_EVICT_AFTER_IDLE_MS = 120_000;

function covered(state: PassState): ReadonlySet<string> {
  const pass = state.quota;
  if (!pass) return new Set();
  pass.guaranteed ??= guaranteedReplicas(pass, state.input.replicas);
  return pass.guaranteed;
}

function rankOf(model: DesiredModel | undefined): number {
  return PRIORITY_CLASSES.indexOf(model?.definition.priority_class ?? "normal");
}

function isIdle(replica: ObservedReplica, model: DesiredModel, state: PassState): boolean {
  const { nowMs, policy } = state.input;
  const lastUsedAtMs = replica.lastUsedAtMs;
  if (replica.phase !== "ready" || (replica.inFlight ?? 0) > 0) return false;
  if (lastUsedAtMs === null || lastUsedAtMs === undefined) return false;
  if (nowMs - replica.createdAtMs < model.definition.min_lifetime_ms) return false;
  return nowMs - lastUsedAtMs >= (policy.evictAfterIdleMs ?? DEFAULT_EVICT_AFTER_IDLE_MS);
}

function isEvictable(
  replica: ObservedReplica,
  state: PassState,
  guaranteed: ReadonlySet<string>,
): boolean {
  const theirs = state.byName.get(replica.model);
  if (!theirs || guaranteed.has(replica.id)) return false;
  const isBorrowed = (theirs.ownerChain ?? []).length > 0;
  return (theirs.definition.on_demand || isBorrowed) && isIdle(replica, theirs, state);
}

/** Stops idle replicas to make room for one replica of `model`; true when it stopped some. */
export function evictIdleFor(
  model: DesiredModel,
  state: PassState,
  actions: ReconcileAction[],
): boolean {
  const { byName } = state;
  const room = roomOf(state);
  if (!room.idle) {
    const guaranteed = covered(state);
    room.idle = candidatesByNode(state, (replica) => isEvictable(replica, state, guaranteed));
  }
  if (room.idle.size === 0) return false;
  const name = model.definition.name;
  const rank = rankOf(model);
  const mayTake = (replica: ObservedReplica): boolean => {
    const theirs = byName.get(replica.model);
    if (!theirs || replica.model === name) return false;
    const theirRank = rankOf(theirs);
    return (
      rank < theirRank ||
      (rank === theirRank && model.definition.on_demand && theirs.definition.on_demand)
    );
  };
  const pass = state.quota;
  const { nowMs } = state.input;
  const taken = makeRoom(
    state,
    {
      model,
      candidates: room.idle,
      mayTake,
      order: (a, b) =>
        rankOf(byName.get(b.model)) - rankOf(byName.get(a.model)) ||
        (a.lastUsedAtMs ?? nowMs) - (b.lastUsedAtMs ?? nowMs),
      worth: (replica) => -rankOf(byName.get(replica.model)),
      admits: (profile, shard) =>
        !pass || limitRefusal(pass, model.definition, profile, [shard]) === null,
      reasonFor: () =>
        `idle; evicted to make room for model ${name} (priority ${model.definition.priority_class})`,
    },
    actions,
  );
  for (const replica of taken) if (pass) releaseStopped(pass, replica);
  return taken.length > 0;
}
