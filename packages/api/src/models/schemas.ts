// The catalog: what the cluster should serve. The model definition itself is validated by the zod
// schema in @llmgw/domain; here it travels as a JSON object.
import { z } from "zod";
import { oneLine } from "../text";

export const modelStateSchema = z.enum([
  "ready",
  "progressing",
  "parked",
  "unplaceable",
  "stopped",
]);
export type ModelState = z.infer<typeof modelStateSchema>;

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

const modelNameSchema = oneLine("model name").trim().min(1, "model name is required").max(200);

export const setFallbacksInputSchema = z.object({
  name: modelNameSchema,
  fallbacks: z.array(modelNameSchema).max(32, "at most 32 fallbacks"),
});

/** Sets a model's owner (`team:ml`); null clears it. The server checks it names a unit of the tree. */
export const setModelOwnerInputSchema = z.object({
  model: oneLine("model").min(1, "model name is required").max(200),
  owner: oneLine("owner")
    .min(1, "owner is required; give org:NAME, team:NAME or project:NAME")
    .max(200)
    .nullable(),
});
export type SetModelOwnerInput = z.infer<typeof setModelOwnerInputSchema>;

const profileField = oneLine("profile").min(1).max(63).optional();
const inPlaceField = z
  .boolean()
  .default(false)
  .describe("stop each replica before its replacement starts, for a fleet with no room beside");

/** `ctl model gpus`: cards of one node each replica uses, with the engine's tensor parallel. */
export const setModelGpusInputSchema = z.object({
  name: oneLine("name").min(1, "model name is required").max(200),
  gpus: z.int().min(1, "give at least 1 card").max(64, "at most 64 cards a node"),
  profile: profileField,
  inPlace: inPlaceField,
});
export type SetModelGpusInput = z.infer<typeof setModelGpusInputSchema>;

/** `ctl model context`: the context each sequence gets, and how many sequences at once. */
export const setModelContextInputSchema = z.object({
  name: oneLine("name").min(1, "model name is required").max(200),
  contextTokens: z
    .int()
    .min(128, "give a context of at least 128 tokens")
    .max(10_000_000, "give a context of at most 10,000,000 tokens"),
  slots: z.int().min(1, "give at least 1 slot").max(4_096, "at most 4096 slots").optional(),
  profile: profileField,
  inPlace: inPlaceField,
});
export type SetModelContextInput = z.infer<typeof setModelContextInputSchema>;

/** `ctl model resources`: host cores and memory of a profile, on each node of a replica. */
export const setModelResourcesInputSchema = z.object({
  name: oneLine("name").min(1, "model name is required").max(200),
  cpuCores: z.number().min(0, "cores cannot be below 0").max(4_096, "at most 4096 cores"),
  memoryGb: z.number().min(0, "memory cannot be below 0").max(65_536, "at most 65536 GB"),
  profile: profileField,
  inPlace: inPlaceField,
});
export type SetModelResourcesInput = z.infer<typeof setModelResourcesInputSchema>;

const resizeNoteSchema = z.object({
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  text: z.string(),
});

/** A sizing action's answer: the model after the change and what sizing said about it. */
export const resizeResultSchema = z.object({
  model: modelViewSchema,
  /** False when the definition was already so: nothing restarts. */
  changed: z.boolean(),
  notes: z.array(resizeNoteSchema),
});
export type ResizeResultView = z.infer<typeof resizeResultSchema>;
