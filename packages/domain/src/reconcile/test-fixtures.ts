// Builders for reconcile tests: models, replicas and nodes with only what a test changes.
import { parseModelDefinition, type ModelDefinitionInput } from "../catalog/model-definition";
import { node } from "../placement/test-fixtures";
import type { PlacementNode } from "../placement/types";
import {
  DEFAULT_RECONCILE_POLICY,
  type DesiredModel,
  type ObservedReplica,
  type ReconcileAction,
  type ReconcileInput,
  type ReconcileNode,
} from "./types";

export function model(overrides: Partial<ModelDefinitionInput> = {}, revision = 1): DesiredModel {
  const parsed = parseModelDefinition({
    name: "qwen-7b",
    source: "Qwen/Qwen2.5-7B-Instruct",
    profiles: [{ name: "h100", engine: "vllm", gpu: "H100-80G", gpus: 1 }],
    replicas: { min: 1, max: 2 },
    ...overrides,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return { definition: parsed.model, revision };
}

export function replica(id: string, overrides: Partial<ObservedReplica> = {}): ObservedReplica {
  return {
    id,
    model: "qwen-7b",
    profile: "h100",
    modelRevision: 1,
    nodeId: "n1",
    gpuIndexes: [0],
    phase: "ready",
    message: "",
    createdAtMs: 0,
    ...overrides,
  };
}

export function liveNode(
  id: string,
  overrides: Partial<PlacementNode> = {},
  unreachableSinceMs: number | null = null,
): ReconcileNode {
  return {
    node: node(id, { isReachable: unreachableSinceMs === null, ...overrides }),
    unreachableSinceMs,
  };
}

export function input(overrides: Partial<ReconcileInput>): ReconcileInput {
  let next = 1;
  return {
    models: [],
    health: [],
    replicas: [],
    nodes: [],
    nowMs: 100_000,
    policy: DEFAULT_RECONCILE_POLICY,
    newReplicaId: (name) => `${name}-r${next++}`,
    ...overrides,
  };
}

/** The replica a simulated world records for a placement: placing, on its first shard's node. */
export function placedReplica(
  action: Extract<ReconcileAction, { kind: "place" }>,
  nowMs: number,
): ObservedReplica {
  const shard = action.shards[0];
  if (!shard) throw new Error("a placement without a shard");
  return {
    id: action.replicaId,
    model: action.model,
    profile: action.profile,
    modelRevision: action.revision,
    nodeId: shard.nodeId,
    gpuIndexes: shard.cardIndexes,
    phase: "placing",
    message: "",
    createdAtMs: nowMs,
  };
}
