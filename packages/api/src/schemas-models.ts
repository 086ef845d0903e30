// API shapes for the catalog, replicas and cluster status (issue 3). The model definition itself
// is validated by the zod schema in @llmgw/domain; here it travels as a JSON object.
import { REPLICA_PHASE_NAMES } from "@llmgw/domain";
import { z } from "zod";
import { oneLine } from "./text";

export const modelStateSchema = z.enum([
  "ready",
  "progressing",
  "parked",
  "unplaceable",
  "stopped",
]);
export type ModelState = z.infer<typeof modelStateSchema>;

export const replicaPhaseSchema = z.enum(REPLICA_PHASE_NAMES);
export type ReplicaPhase = z.infer<typeof replicaPhaseSchema>;

export const modelViewSchema = z.object({
  name: z.string(),
  definition: z.record(z.string(), z.unknown()),
  revision: z.number().int(),
  state: modelStateSchema,
  /** Replicas wanted now (min, or more while load asks for it). */
  replicasDesired: z.number().int(),
  replicasReady: z.number().int(),
  replicasTotal: z.number().int(),
  consecutiveFailures: z.number().int(),
  isParked: z.boolean(),
  /** The error that parked the model, or the last start failure. */
  lastError: z.string().nullable(),
  /** Why no node can take a replica, one line per node, when the model is unplaceable. */
  unplaceableReasons: z.array(z.string()),
  fallbacks: z.array(z.string()),
  owner: z.string().nullable(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  /**
   * An external model's key source, never the key: "sealed" in the store, key "files", or "none"
   * yet (requests answer 503 until one is set); null for a model the fleet serves.
   */
  externalKey: z.enum(["sealed", "files", "none"]).nullable(),
});
export type ModelView = z.infer<typeof modelViewSchema>;

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
});
export type ReplicaView = z.infer<typeof replicaViewSchema>;

/** Ready replicas whose every card stayed under the threshold for the whole window: stoppable. */
export const idleReplicasSchema = z.object({
  thresholdPercent: z.number(),
  windowMs: z.number(),
  replicas: z.array(z.object({ replica: replicaViewSchema, peakUtilizationPercent: z.number() })),
});
export type IdleReplicasView = z.infer<typeof idleReplicasSchema>;

export const presetViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  definition: z.record(z.string(), z.unknown()),
  /** What it needs, in words ("1 GPU with compute capability ≥ 8.0 and ≥ 24 GB", "CPU"). */
  needs: z.array(z.string()),
  /** Whether the fleet could place a replica now, and why not. */
  fits: z.boolean(),
  reasons: z.array(z.string()),
});
export type PresetView = z.infer<typeof presetViewSchema>;

export const placementExplanationSchema = z.object({
  model: z.string(),
  /** One line per node and profile: chosen, fits, or why not. */
  lines: z.array(z.string()),
  summary: z.string(),
});
export type PlacementExplanation = z.infer<typeof placementExplanationSchema>;

export const gpuClassCapacitySchema = z.object({
  gpuClass: z.string(),
  cardsTotal: z.number().int(),
  cardsUsed: z.number().int(),
  cardsUnhealthy: z.number().int(),
});

export const clusterStatusSchema = z.object({
  nodesReady: z.number().int(),
  nodesUnreachable: z.number().int(),
  /** Nodes with every card free (room for a model that needs a whole node). */
  freeWholeNodes: z.array(z.string()),
  capacity: z.array(gpuClassCapacitySchema),
  replicasReady: z.number().int(),
  replicasDesired: z.number().int(),
  modelsReady: z.number().int(),
  modelsTotal: z.number().int(),
  parked: z.array(z.object({ model: z.string(), lastError: z.string() })),
  unplaceable: z.array(z.object({ model: z.string(), reasons: z.array(z.string()) })),
});
export type ClusterStatus = z.infer<typeof clusterStatusSchema>;

export const logsViewSchema = z.object({
  node: z.string(),
  source: z.string(),
  lines: z.array(z.string()),
  sources: z.array(z.string()),
});
export type LogsView = z.infer<typeof logsViewSchema>;

export const reclaimViewSchema = z.object({
  collect: z.boolean(),
  nodes: z.array(
    z.object({
      node: z.string(),
      entries: z.array(
        z.object({
          cacheName: z.string(),
          source: z.string(),
          sizeBytes: z.number(),
          removed: z.boolean(),
          refused: z.string(),
        }),
      ),
      bytesFreed: z.number(),
      error: z.string().nullable(),
    }),
  ),
});
export type ReclaimView = z.infer<typeof reclaimViewSchema>;

export const modelNameInputSchema = z.object({
  name: oneLine("name").min(1, "model name is required").max(200),
});
export const addModelInputSchema = z.union([
  z.object({ definition: z.record(z.string(), z.unknown()) }),
  z.object({ preset: oneLine("preset").min(1, "preset name is required").max(200) }),
]);
export type AddModelInput = z.infer<typeof addModelInputSchema>;

/** Sets an external model's provider key, kept sealed (null clears it); it is never answered back. */
export const setModelKeyInputSchema = z.object({
  name: z.string().trim().min(1, "model name is required").max(200),
  key: z
    .string()
    .trim()
    .min(1, "the key is empty; give the provider's key")
    .max(4_096, "the key must be at most 4096 characters")
    .nullable(),
});
