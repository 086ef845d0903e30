// Taking borrowed capacity back. A model that cannot be placed, whose new replica would stay
// within the guarantee of a scope of its owner chain, stops replicas that other scopes hold beyond
// their guarantees (never one within its owner's guarantee, never one of its own subtree, never
// one of a model without an owner), lowest priority class first, then the newest, as few as the
// room needs; it is placed in a later pass once the node has freed the cards.
import { guaranteedReplicas, guaranteeScopeFor, priorityRank } from "./guarantees";
import { candidatesByNode, makeRoom, roomOf } from "./make-room";
import type { PassState } from "./pass-state";
import { askOf, limitRefusal, releaseStopped, type QuotaPass } from "./quota-pass";
import type { DesiredModel, ReconcileAction } from "./types";

function guaranteed(pass: QuotaPass, state: PassState): Set<string> {
  pass.guaranteed ??= guaranteedReplicas(pass, state.input.replicas);
  return pass.guaranteed;
}

/**
 * Whether some profile of the model could stay within a guarantee of its chain: the cheap test
 * that spares a model far beyond its guarantee the search for room. A profile asking for a need
 * rather than a class may be; the search then checks the class it finds.
 */
function mayBeWithinGuarantee(
  pass: QuotaPass,
  model: DesiredModel,
  chain: readonly string[],
): boolean {
  return model.definition.profiles.some((profile) => {
    if (profile.gpu !== undefined && typeof profile.gpu !== "string") return true;
    const cards = profile.gpu === undefined ? 0 : (profile.gpus ?? 1);
    const shards = Array.from({ length: profile.nodes }, () => ({
      nodeId: "",
      cardIndexes: Array.from({ length: cards }, (_, index) => index),
    }));
    return guaranteeScopeFor(pass, chain, askOf(pass, profile, shards)) !== null;
  });
}

/** Stops borrowers to make room for one replica of `model`; true when it stopped some. */
export function takeBackFor(
  model: DesiredModel,
  state: PassState,
  actions: ReconcileAction[],
): boolean {
  const pass = state.quota;
  const chain = model.ownerChain ?? [];
  const owner = chain.at(-1);
  if (!pass || owner === undefined) return false;
  if (!mayBeWithinGuarantee(pass, model, chain)) return false;
  const room = roomOf(state);
  room.borrowed ??= candidatesByNode(state, (replica) => {
    const theirs = pass.byName.get(replica.model)?.ownerChain ?? [];
    return theirs.length > 0 && !guaranteed(pass, state).has(replica.id);
  });
  const taken = makeRoom(
    state,
    {
      model,
      candidates: room.borrowed,
      mayTake: (replica) => !(pass.byName.get(replica.model)?.ownerChain ?? []).includes(owner),
      order: (a, b) =>
        priorityRank(pass, b.model) - priorityRank(pass, a.model) || b.createdAtMs - a.createdAtMs,
      worth: (replica) => -priorityRank(pass, replica.model),
      admits: (profile, shard) =>
        limitRefusal(pass, model.definition, profile, [shard]) === null &&
        guaranteeScopeFor(pass, chain, askOf(pass, profile, [shard])) !== null,
      reasonFor: (profile, shard) => {
        const scope = guaranteeScopeFor(pass, chain, askOf(pass, profile, [shard])) ?? owner;
        return `borrowed capacity taken back for ${scope} (model ${model.definition.name})`;
      },
    },
    actions,
  );
  for (const replica of taken) releaseStopped(pass, replica);
  return taken.length > 0;
}
