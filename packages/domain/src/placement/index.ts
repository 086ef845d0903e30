// Placement: which node and cards take a replica, or why none can.
export * from "./types";
export { placeReplica, placeReplicas } from "./place";
export {
  explainPlacement,
  formatExplanation,
  type NodeExplanation,
  type PlacementExplanation,
} from "./explain";
export { placementRequestFor } from "./request";
export { PREDICATES, type Predicate } from "./predicates";
export { placeModelReplicas, type ModelPlacementResult, type ModelReplicaAsk } from "./place-model";
