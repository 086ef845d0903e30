// Reconcile planning: from desired and observed state to the actions that close the gap.
export * from "./types";
export { planReconcile, type ReconcilePlan } from "./plan";
export { createPlanCache, type PlanCache } from "./plan-cache";
export { baseReplicas, desiredReplicas } from "./plan-model";
export * from "./autoscale";
export { isNodeLost } from "./nodes";
export { DEFAULT_FAILURE_BACKOFF, failureBackoffMs } from "./failure-backoff";
export { asWhole, combinedPhase, shardNodeIds, shardsOf, workerFailureMessage } from "./shards";
