// Placing a replica of a catalog model: its profiles are tried in the order the definition lists
// them (the first is the preferred way to serve it, later ones are fallbacks such as CPU), and a
// refusal keeps every profile's reasons so explain-placement can show why none was used.
import type { ModelDefinition, ModelProfile } from "../catalog/model-definition";
import { addReplica, buildFleet } from "./fleet";
import type { Fleet, NodeUsage } from "./fleet-types";
import { placeShards, refusedResult, type ChosenNodes } from "./place";
import { placementRequestFor } from "./request";
import {
  DEFAULT_PLACEMENT_POLICY,
  type ExistingReplica,
  type NodeRejection,
  type PlacementInput,
  type PlacementNode,
  type PlacementPolicy,
  type PlacementRequest,
  type ReplicaShard,
} from "./types";

export interface ModelReplicaAsk {
  model: ModelDefinition;
  replicaId: string;
  /** Nodes with this role are tried first for a profile that names no role (see DesiredModel). */
  preferredRole?: string | undefined;
}

export type ModelPlacementResult =
  | { ok: true; replicaId: string; profile: string; shards: ReplicaShard[]; gpuClass?: string }
  | {
      ok: false;
      replicaId: string;
      summary: string;
      profiles: { profile: string; summary: string; rejections: NodeRejection[] }[];
    };

/**
 * Says why a replica placement found room for may still not start (a quota limit of its owner),
 * or null to take the placement (which is then made). It sees the shards, so it knows which
 * class of card was chosen.
 */
export type PlacementAdmission = (
  model: ModelDefinition,
  profile: ModelProfile,
  shards: readonly ReplicaShard[],
  /**
   * The shards' nodes, in shard order (the first `shards.length`), so none is looked up by id;
   * undefined for a node whose id a later node of the input shares (look that one up).
   */
  nodes: readonly (PlacementNode | undefined)[],
  /**
   * Per shard (the first `shards.length`), the class of every card it takes where placement knows
   * it to be the class of the node's card with that index; undefined: read the node's cards.
   */
  cardClasses: readonly (string | undefined)[],
) => string | null;

/**
 * Places each ask in order over one index, so later asks see the cards earlier ones took. A caller
 * placing several models in one pass passes `fleet` (from `buildFleet` over the same nodes and
 * replicas) so the index is built once for the pass, not once per model; placements are added to
 * it here, as to the index made here otherwise.
 */
export function placeModelReplicas(
  input: PlacementInput,
  asks: readonly ModelReplicaAsk[],
  fleet?: Fleet,
  admit?: PlacementAdmission,
): ModelPlacementResult[] {
  if (asks.length === 0) return [];
  const policy = input.policy ?? DEFAULT_PLACEMENT_POLICY;
  const placing = fleet ?? buildFleet(input.nodes, input.replicas);
  return withScratch((scratch) =>
    asks.map(({ model, replicaId, preferredRole }): ModelPlacementResult => {
      const at = { model, preferredRole, fleet: placing, policy, admit };
      if (!placeAsk(at, replicaId, scratch)) return refusedOf(replicaId, scratch);
      const { shards, profile, gpuClass } = scratch;
      // Built whole in one of two shapes: a class added afterwards moved the fields into a store
      // of their own, another record.
      return gpuClass === undefined
        ? { ok: true, replicaId, profile, shards }
        : { ok: true, replicaId, profile, shards, gpuClass };
    }),
  );
}

/** What placeModelCopies hands its caller for each replica placed. */
export type OnPlaced = (
  replicaId: string,
  profile: string,
  shards: ReplicaShard[],
  gpuClass: string | undefined,
) => void;

/** Replicas of one model, as placeModelCopies places them. */
export interface ModelCopies {
  model: ModelDefinition;
  /** One per replica wanted, in order: the first `count` of the list. */
  replicaIds: readonly string[];
  count: number;
  preferredRole?: string | undefined;
  fleet: Fleet;
  policy?: PlacementPolicy | undefined;
  admit?: PlacementAdmission | undefined;
}

/**
 * placeModelReplicas for replicas of one model over a pass's fleet, as the reconciler places
 * them: each placement is handed to `onPlaced` as it is made, and the first refusal ends the
 * call and is returned (undefined: every replica placed). The asks after a refusal would get the
 * same one, as nothing changed in between. No ask, result or list of results is made: they were
 * records per placement that the pass read once and let go.
 */
export function placeModelCopies(
  copies: ModelCopies,
  onPlaced: OnPlaced,
): (ModelPlacementResult & { ok: false }) | undefined {
  if (copies.count <= 0) return undefined;
  const { model, preferredRole, fleet, admit } = copies;
  const at = {
    model,
    preferredRole,
    fleet,
    policy: copies.policy ?? DEFAULT_PLACEMENT_POLICY,
    admit,
  };
  return withScratch((scratch) => {
    for (let copy = 0; copy < copies.count; copy += 1) {
      const replicaId = copies.replicaIds[copy] as string;
      if (!placeAsk(at, replicaId, scratch)) return refusedOf(replicaId, scratch);
      onPlaced(replicaId, scratch.profile, scratch.shards, scratch.gpuClass);
    }
    return undefined;
  });
}

/** Runs `place` with the shared scratch, or a scratch of its own when a call is using it. */
function withScratch<T>(place: (scratch: Scratch) => T): T {
  // None runs inside another in a pass; the check keeps a caller that nests them correct.
  const scratch = SCRATCH.inUse ? newScratch() : SCRATCH;
  scratch.inUse = true;
  // Requests are made afresh for every call, as the search's resume tells them apart by identity.
  scratch.requests.model = undefined;
  try {
    return place(scratch);
  } finally {
    scratch.inUse = false;
    scratch.placed.shards = NO_SHARDS;
    scratch.shards = NO_SHARDS;
    scratch.refusals = undefined;
  }
}

/** One model's asks: what stays the same from ask to ask. */
interface AskContext {
  model: ModelDefinition;
  preferredRole: string | undefined;
  fleet: Fleet;
  policy: PlacementPolicy;
  admit: PlacementAdmission | undefined;
}

function refusedOf(replicaId: string, scratch: Scratch): ModelPlacementResult & { ok: false } {
  const profiles = scratch.refusals ?? [];
  const summary = profiles.map((refusal) => refusal.summary).join("; ");
  return { ok: false, replicaId, summary, profiles };
}

/**
 * Places one replica by the first profile that has room and is admitted, adding it to the fleet:
 * true, with its shards, profile and class in the scratch; false, with every profile's refusal.
 */
function placeAsk(ask: AskContext, replicaId: string, scratch: Scratch): boolean {
  const { model, fleet, policy } = ask;
  // Made at the first refusal: most asks are placed by their first profile and need none.
  scratch.refusals = undefined;
  for (let at = 0; at < model.profiles.length; at += 1) {
    const profile = model.profiles[at] as ModelProfile;
    const { asked, preferred } = requestsFor(
      scratch.requests,
      model,
      at,
      policy.roleLabel,
      ask.preferredRole,
    );
    asked.replicaId = replicaId;
    if (preferred !== null) preferred.replicaId = replicaId;
    // The preferred nodes first; no room there is no refusal: the profile's own try decides.
    let request = preferred ?? asked;
    let shards =
      preferred === null ? undefined : placeShards(fleet, policy, preferred, scratch.chosen);
    if (shards === undefined) {
      request = asked;
      shards = placeShards(fleet, policy, asked, scratch.chosen);
    }
    if (shards === undefined) {
      const result = refusedResult(fleet, policy, asked, scratch.chosen.size);
      const { summary, rejections } = result;
      (scratch.refusals ??= []).push({ profile: profile.name, summary, rejections });
      continue;
    }
    const refusal =
      ask.admit?.(model, profile, shards, chosenNodesOf(scratch), scratch.cardClasses) ?? null;
    if (refusal !== null) {
      const summary = `model "${model.name}" profile "${profile.name}": ${refusal}`;
      (scratch.refusals ??= []).push({ profile: profile.name, summary, rejections: [] });
      continue;
    }
    scratch.gpuClass = scratch.chosen.gpuClass;
    addPlaced(fleet, scratch, request, shards);
    scratch.shards = shards;
    scratch.profile = profile.name;
    return true;
  }
  return false;
}

/** What one call writes over placement by placement, so a placement allocates none of it. */
interface Scratch {
  /** The node records the placement chose, one per shard. */
  chosen: ChosenNodes;
  /** The class of each shard's cards where placement knows it: `chosen`'s own list. */
  cardClasses: (string | undefined)[];
  /** Their nodes, for the admission; undefined for a record whose id a later node shares. */
  nodes: (PlacementNode | undefined)[];
  /** The replica addReplica counts: it keeps no record of it. */
  placed: ExistingReplica;
  /** Whether a call is placing with it now. */
  inUse: boolean;
  /** The requests of the model being placed: one call's, emptied at its start. */
  requests: ProfileRequests;
  /** The last placement's shards, profile and class (see placeAsk). */
  shards: ReplicaShard[];
  profile: string;
  gpuClass: string | undefined;
  /** The last ask's refusals, one per profile; undefined until its first. */
  refusals: { profile: string; summary: string; rejections: NodeRejection[] }[] | undefined;
}

function newScratch(): Scratch {
  const cardClasses: (string | undefined)[] = [];
  return {
    chosen: { usages: [], size: 0, cardClasses },
    cardClasses,
    nodes: [],
    placed: {
      id: "",
      model: "",
      shards: [],
      memoryGb: 0,
      cpuCores: 0,
      drawWattsPerCard: undefined,
    },
    inUse: false,
    requests: { model: undefined, role: undefined, byProfile: [] },
    shards: NO_SHARDS,
    profile: "",
    gpuClass: undefined,
    refusals: undefined,
  };
}

const NO_SHARDS: ReplicaShard[] = [];

/**
 * One scratch for every call, as a pass places model after model: made per call it was three
 * records and two lists per model. The last placement's shards are let go at the end of a call;
 * its nodes' records stay, as the fleet index holding them does.
 */
const SCRATCH: Scratch = newScratch();

function chosenNodesOf(scratch: Scratch): readonly (PlacementNode | undefined)[] {
  const { chosen, nodes } = scratch;
  for (let shard = 0; shard < chosen.size; shard += 1) {
    const usage = chosen.usages[shard] as NodeUsage;
    nodes[shard] = usage.isShadowed ? undefined : usage.node;
  }
  return nodes;
}

/** Counts the placement just made in the fleet, on the records it chose. */
function addPlaced(
  fleet: Fleet,
  scratch: Scratch,
  request: PlacementRequest,
  shards: ReplicaShard[],
): void {
  const { placed } = scratch;
  placed.id = request.replicaId;
  placed.model = request.model;
  placed.shards = shards;
  placed.memoryGb = request.memoryGb;
  placed.cpuCores = request.cpuCores;
  placed.drawWattsPerCard = request.drawWattsPerCard;
  addReplica(fleet, placed, scratch.chosen.usages);
}

/**
 * The requests of one model's profiles, made at an ask's first try of each and reused by the asks
 * after it, which differ only in their replica id (set on the request before each try). A model's
 * asks are placed one after another and nothing keeps a request past its placement, so one object
 * serves them all: made per ask, the request was the largest record a pass allocated.
 */
interface ProfileRequests {
  model: ModelDefinition | undefined;
  role: string | undefined;
  byProfile: ({ asked: PlacementRequest; preferred: PlacementRequest | null } | undefined)[];
}

function requestsFor(
  requests: ProfileRequests,
  model: ModelDefinition,
  at: number,
  roleLabel: string,
  role: string | undefined,
): { asked: PlacementRequest; preferred: PlacementRequest | null } {
  if (requests.model !== model || requests.role !== role) {
    requests.model = model;
    requests.role = role;
    requests.byProfile = [];
  }
  let known = requests.byProfile[at];
  if (known === undefined) {
    const asked = placementRequestFor(model, model.profiles[at] as ModelProfile, "");
    known = { asked, preferred: preferredRequest(asked, roleLabel, role) };
    requests.byProfile[at] = known;
  }
  return known;
}

/** The request narrowed to the preferred role's nodes, or null when it names a role itself. */
function preferredRequest(
  request: PlacementRequest,
  roleLabel: string,
  role: string | undefined,
): PlacementRequest | null {
  if (role === undefined || Object.hasOwn(request.nodeSelector, roleLabel)) return null;
  return { ...request, nodeSelector: { ...request.nodeSelector, [roleLabel]: role } };
}
