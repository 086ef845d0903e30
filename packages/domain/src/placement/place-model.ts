// Placing a replica of a catalog model: its profiles are tried in the order the definition lists
// them (the first is the preferred way to serve it, later ones are fallbacks such as CPU), and a
// refusal keeps every profile's reasons so explain-placement can show why none was used.
import type { ModelDefinition, ModelProfile } from "../catalog/model-definition";
import { addReplica, buildFleet } from "./fleet";
import type { Fleet, NodeUsage } from "./fleet-types";
import { placeOne, type ChosenNodes } from "./place";
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
  fleet ??= buildFleet(input.nodes, input.replicas);
  const requests: ProfileRequests = { model: undefined, role: undefined, byProfile: [] };
  // The scratch of the last call, when no call is using it (none runs inside another in a pass).
  const scratch = SCRATCH.inUse ? newScratch() : SCRATCH;
  scratch.inUse = true;
  try {
    return placeAsks(fleet, policy, asks, scratch, requests, admit);
  } finally {
    scratch.inUse = false;
    scratch.placed.shards = NO_SHARDS;
  }
}

function placeAsks(
  fleet: Fleet,
  policy: PlacementPolicy,
  asks: readonly ModelReplicaAsk[],
  scratch: Scratch,
  requests: ProfileRequests,
  admit: PlacementAdmission | undefined,
): ModelPlacementResult[] {
  return asks.map(({ model, replicaId, preferredRole }): ModelPlacementResult => {
    // Made at the first refusal: most asks are placed by their first profile and need none.
    let refusals: { profile: string; summary: string; rejections: NodeRejection[] }[] | undefined;
    for (let at = 0; at < model.profiles.length; at += 1) {
      const profile = model.profiles[at] as ModelProfile;
      const { asked, preferred } = requestsFor(
        requests,
        model,
        at,
        policy.roleLabel,
        preferredRole,
      );
      asked.replicaId = replicaId;
      if (preferred !== null) preferred.replicaId = replicaId;
      // The preferred nodes first; no room there is no refusal: the profile's own try decides.
      const onPreferred =
        preferred === null ? null : placeOne(fleet, policy, preferred, scratch.chosen);
      const request = preferred !== null && onPreferred?.ok ? preferred : asked;
      const result = onPreferred?.ok ? onPreferred : placeOne(fleet, policy, asked, scratch.chosen);
      if (!result.ok) {
        (refusals ??= []).push({
          profile: profile.name,
          summary: result.summary,
          rejections: result.rejections,
        });
        continue;
      }
      const refusal = admit?.(model, profile, result.shards, chosenNodesOf(scratch)) ?? null;
      if (refusal !== null) {
        const summary = `model "${model.name}" profile "${profile.name}": ${refusal}`;
        (refusals ??= []).push({ profile: profile.name, summary, rejections: [] });
        continue;
      }
      addPlaced(fleet, scratch, request, result.shards);
      // Built whole in one of two shapes: a spread of the result was a slow copy per placement,
      // and a class added afterwards moved the fields into a store of their own, another record.
      const { shards, gpuClass } = result;
      return gpuClass === undefined
        ? { ok: true, replicaId, profile: profile.name, shards }
        : { ok: true, replicaId, profile: profile.name, shards, gpuClass };
    }
    const profiles = refusals ?? [];
    const summary = profiles.map((refusal) => refusal.summary).join("; ");
    return { ok: false, replicaId, summary, profiles };
  });
}

/** What one call writes over placement by placement, so a placement allocates none of it. */
interface Scratch {
  /** The node records the placement chose, one per shard. */
  chosen: ChosenNodes;
  /** Their nodes, for the admission; undefined for a record whose id a later node shares. */
  nodes: (PlacementNode | undefined)[];
  /** The replica addReplica counts: it keeps no record of it. */
  placed: ExistingReplica;
  /** Whether a call is placing with it now. */
  inUse: boolean;
}

function newScratch(): Scratch {
  return {
    chosen: { usages: [], size: 0 },
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
