// Placing a replica of a catalog model: its profiles are tried in the order the definition lists
// them (the first is the preferred way to serve it, later ones are fallbacks such as CPU), and a
// refusal keeps every profile's reasons so explain-placement can show why none was used.
import type { ModelDefinition } from "../catalog/model-definition";
import { addReplica, buildFleet } from "./fleet";
import type { Fleet } from "./fleet-types";
import { placeOne } from "./place";
import { placementRequestFor } from "./request";
import {
  DEFAULT_PLACEMENT_POLICY,
  type NodeRejection,
  type PlacementInput,
  type ReplicaShard,
} from "./types";

export interface ModelReplicaAsk {
  model: ModelDefinition;
  replicaId: string;
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
 * Places each ask in order over one index, so later asks see the cards earlier ones took. A caller
 * placing several models in one pass passes `fleet` (from `buildFleet` over the same nodes and
 * replicas) so the index is built once for the pass, not once per model; placements are added to
 * it here, as to the index made here otherwise.
 */
export function placeModelReplicas(
  input: PlacementInput,
  asks: readonly ModelReplicaAsk[],
  fleet?: Fleet,
): ModelPlacementResult[] {
  if (asks.length === 0) return [];
  const policy = input.policy ?? DEFAULT_PLACEMENT_POLICY;
  fleet ??= buildFleet(input.nodes, input.replicas);
  return asks.map(({ model, replicaId }): ModelPlacementResult => {
    const refusals: { profile: string; summary: string; rejections: NodeRejection[] }[] = [];
    for (const profile of model.profiles) {
      const request = placementRequestFor(model, profile, replicaId);
      const result = placeOne(fleet, policy, request);
      if (!result.ok) {
        refusals.push({
          profile: profile.name,
          summary: result.summary,
          rejections: result.rejections,
        });
        continue;
      }
      const { memoryGb, cpuCores } = request;
      addReplica(fleet, {
        id: replicaId,
        model: model.name,
        shards: result.shards,
        memoryGb,
        cpuCores,
      });
      return { ...result, profile: profile.name };
    }
    const summary = refusals.map((refusal) => refusal.summary).join("; ");
    return { ok: false, replicaId, summary, profiles: refusals };
  });
}
