// The bridge from a catalog definition to what placement reads, so placement never depends on
// the shape of the schema and the schema can grow without touching it.
import type { ModelDefinition, ModelProfile } from "../catalog/model-definition";
import type { PlacementRequest } from "./types";

export function placementRequestFor(
  model: ModelDefinition,
  profile: ModelProfile,
  replicaId: string,
): PlacementRequest {
  const request: PlacementRequest = {
    replicaId,
    model: model.name,
    profile: profile.name,
    source: model.source,
    engine: profile.engine,
    gpus: profile.gpu === undefined ? 0 : profile.gpus,
    nodes: profile.nodes,
    memoryGb: profile.memory_gb,
    cpuCores: profile.cpu_cores,
    sizeGb: model.size_gb,
    nodeSelector: profile.node_selector.labels,
  };
  if (profile.keep_within !== undefined) request.keepWithin = profile.keep_within;
  if (profile.power_watts_per_card !== undefined)
    request.drawWattsPerCard = profile.power_watts_per_card;
  // Set, not spread into a copy: a CPU request has no `gpu` at all, and a copy per placement cost.
  if (profile.gpu !== undefined) request.gpu = profile.gpu;
  return request;
}
