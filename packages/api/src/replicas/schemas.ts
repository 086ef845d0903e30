// Replicas as they are now: where each runs, its phase and endpoint, and which ones sit idle.
import { REPLICA_PHASE_NAMES } from "@llmgw/domain";
import { z } from "zod";
import { oneLine } from "../text";

export const replicaPhaseSchema = z.enum(REPLICA_PHASE_NAMES);
export type ReplicaPhase = z.infer<typeof replicaPhaseSchema>;

/** One rank of a replica spanning nodes (rank 0 is the leader shard, which serves the API). */
export const replicaShardViewSchema = z.object({
  rank: z.number().int(),
  nodeId: z.string(),
  nodeName: z.string(),
  gpuIndexes: z.array(z.number().int()),
  phase: replicaPhaseSchema,
  message: z.string(),
});
export type ReplicaShardView = z.infer<typeof replicaShardViewSchema>;

export const replicaViewSchema = z.object({
  id: z.string(),
  model: z.string(),
  profile: z.string(),
  nodeId: z.string(),
  nodeName: z.string(),
  gpuIndexes: z.array(z.number().int()),
  engine: z.string(),
  phase: replicaPhaseSchema,
  message: z.string(),
  endpoint: z.string().nullable(),
  phaseChangedAt: z.string(),
  lastUsedAt: z.string().nullable(),
  fetchProgress: z.number().nullable(),
  /** Every shard by rank for a replica spanning nodes; empty for a replica on one node. */
  shards: z.array(replicaShardViewSchema),
});
export type ReplicaView = z.infer<typeof replicaViewSchema>;

/** Ready replicas whose every card stayed under the threshold for the whole window: stoppable. */
export const idleReplicasSchema = z.object({
  thresholdPercent: z.number(),
  windowMs: z.number(),
  replicas: z.array(z.object({ replica: replicaViewSchema, peakUtilizationPercent: z.number() })),
});
export type IdleReplicasView = z.infer<typeof idleReplicasSchema>;

/** Which replica `ctl bench` measures: one named, else the model's first ready one. */
export const benchAccessInputSchema = z.object({
  model: oneLine("model").trim().min(1, "model is empty").max(200),
  replica: oneLine("replica").trim().min(1, "replica is empty").max(200).optional(),
});
export type BenchAccessInput = z.infer<typeof benchAccessInputSchema>;

/** Where a ready replica's engine answers and the key it takes (admin only; audited). */
export const benchAccessSchema = z.object({
  replicaId: z.string(),
  model: z.string(),
  engine: z.string(),
  nodeName: z.string(),
  /** The engine's OpenAI-compatible base URL, `http://host:port/v1`. */
  baseUrl: z.string(),
  key: z.string(),
  /** The model name the engine answers to. */
  servedModelName: z.string(),
});
export type BenchAccess = z.infer<typeof benchAccessSchema>;

export const replicasListInputSchema = z
  .object({
    model: oneLine("model").trim().min(1, "model filter is empty").max(200).optional(),
    node: oneLine("node").trim().min(1, "node filter is empty").max(200).optional(),
  })
  .default({});
