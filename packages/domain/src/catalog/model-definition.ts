// The one schema for a model definition. Files, tRPC inputs, CLI flags and console forms all
// parse through it, so a definition refused in one place is refused with the same words in all.
import { z } from "zod";
import { ENGINES, checkEngineArgs, type Engine } from "./engine-flags";
import { comfyuiSettingsSchema } from "../images/comfyui-settings";
import { externalSchema } from "./external-model";
import { GPU_NEED_EXAMPLE } from "./gpu-need";
import { catalogErrorMap, formatIssues } from "./issues";
import { pickleExtension, sourceKind } from "./source";
import { adapterSchema, checkAdapters } from "./adapters";
import {
  NAME_PATTERN,
  NAME_RULE,
  REFUSED_ENV,
  count,
  duration,
  profileSchema,
} from "./profile-schema";

export { ENGINES, type Engine };
export { profileSchema };
export {
  describeGpuNeed,
  GPU_NEED_EXAMPLE,
  gpuNeedSchema,
  meetsGpuNeed,
  type GpuNeed,
} from "./gpu-need";
export { formatIssuePath } from "./issues";
export { externalKeyFiles, externalSchema, type ExternalModel } from "./external-model";

/** Engines that can serve without a card; the others refuse a profile with no gpu. */
export const CPU_CAPABLE_ENGINES: ReadonlySet<Engine> = new Set<Engine>(["llamacpp", "sim"]);

/** Engines that have an embedding mode the agent can switch on. */
export const EMBEDDING_ENGINES: ReadonlySet<Engine> = new Set<Engine>([
  "vllm",
  "sglang",
  "llamacpp",
  "sim",
]);

export const PRIORITY_CLASSES = ["critical", "high", "normal", "low"] as const;

export const RESTART_MODES = ["surge", "in-place"] as const;

/** Queue-depth autoscaling between replicas.min and replicas.max (docs/models.md). */
const autoscaleSchema = z.strictObject({
  /** Requests waiting per ready replica that count as a queue. */
  waiting_per_replica: z
    .number()
    .positive({ error: "autoscale.waiting_per_replica must be above 0" })
    .max(100_000)
    .default(1),
  up_after_ms: duration("autoscale.up_after_ms", 1_000).default(60_000),
  down_after_ms: duration("autoscale.down_after_ms", 1_000).default(600_000),
});

const ownerSchema = z
  .strictObject({
    org: z.string().min(1).optional(),
    team: z.string().min(1).optional(),
    project: z.string().min(1).optional(),
  })
  .refine((owner) => Object.values(owner).filter((value) => value !== undefined).length === 1, {
    error: "name exactly one owner: {org: …}, {team: …} or {project: …}",
  });

const baseSchema = z.strictObject({
  name: z.string().regex(NAME_PATTERN, { error: NAME_RULE }),
  /** Absent only for an external model. */
  source: z.string().min(1).max(2_048).optional(),
  /** Size of the weights on disk; placement needs that much free disk where they are not cached. */
  size_gb: z.number().min(0).max(100_000).default(0),
  /** At least one, except for an external model, which has none. */
  profiles: z.array(profileSchema).max(32).default([]),
  replicas: z
    .strictObject({ min: count(0, 10_000), max: count(1, 10_000) })
    .default({ min: 1, max: 1 }),
  autoscale: autoscaleSchema.optional(),
  on_demand: z.boolean().default(false),
  /**
   * How long a replica runs before it may be evicted as idle for a more important model: its
   * weights took minutes to load, and a replica evicted the moment it is idle would thrash.
   */
  min_lifetime_ms: duration("min_lifetime_ms", 0).default(300_000),
  priority_class: z
    .enum(PRIORITY_CLASSES, { error: `priority_class is one of ${PRIORITY_CLASSES.join(", ")}` })
    .default("normal"),
  allow_pickle: z.boolean().default(false),
  /** An embedding model: its engines start in their embedding mode and serve /v1/embeddings. */
  embeddings: z.boolean().default(false),
  owner: ownerSchema.optional(),
  external: externalSchema.optional(),
  /** How an image request becomes a ComfyUI workflow; for comfyui profiles or `api: comfyui`. */
  comfyui: comfyuiSettingsSchema.optional(),
  /**
   * How the replicas of a new revision replace the old: "surge" (absent) starts each new one beside
   * an old one and stops the old once the new is ready; "in-place" stops each old one first, for a
   * fleet with no room beside. Kept in the definition so the planner reads it with no new column.
   */
  restart: z.enum(RESTART_MODES, { error: "restart is surge or in-place" }).optional(),
  /** LoRA adapters served beside the weights, asked for as MODEL:ADAPTER (docs/models.md). */
  adapters: z.array(adapterSchema).max(64).default([]),
  /** `local`: the model's requests never go to a peer cluster, not even as a fallback's overflow. */
  residency: z.enum(["any", "local"], { error: "residency is any or local" }).optional(),
  /** The model's prompts may be kept nowhere outside this cluster, so never sent to a peer. */
  no_store: z.boolean().optional(),
});

type BaseModel = z.output<typeof baseSchema>;
type Profile = z.output<typeof profileSchema>;
type Issues = z.core.$RefinementCtx<BaseModel>;

function report(ctx: Issues, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

function checkSource(model: BaseModel, ctx: Issues): void {
  if (model.source === undefined) {
    report(ctx, ["source"], "give the weights' source (or make the model external)");
    return;
  }
  const kind = sourceKind(model.source);
  if (kind === undefined) {
    report(
      ctx,
      ["source"],
      `"${model.source}" is not a source; give a Hugging Face id (org/name), an http(s):// URL, a mirror:PATH on the mirrors, a file:// URL or an absolute path on the nodes`,
    );
    return;
  }
  const pickle = pickleExtension(model.source);
  if (pickle && !model.allow_pickle) {
    report(
      ctx,
      ["source"],
      `weights "${model.source}" are a Python pickle (${pickle}), which runs code when loaded; mirror the model's safetensors and point source at them, or set allow_pickle: true if you trust who made it`,
    );
  }
  const downloadsItself = model.profiles.some((profile) => profile.engine === "trtllm");
  if (kind === "hub" && downloadsItself && !model.allow_pickle) {
    report(
      ctx,
      ["source"],
      "TensorRT-LLM downloads a Hugging Face id itself, without the safetensors check; mirror the safetensors and give their URL or path, or set allow_pickle: true",
    );
  }
}

function checkGpu(profile: Profile, path: (string | number)[], ctx: Issues): void {
  const hasGpu = profile.gpu !== undefined;
  if (!hasGpu && !CPU_CAPABLE_ENGINES.has(profile.engine)) {
    report(
      ctx,
      [...path, "gpu"],
      `engine ${profile.engine} needs a GPU; set gpu to a class such as "H100-80G" or a need such as ${GPU_NEED_EXAMPLE}, or use engine llamacpp to serve on CPU`,
    );
  }
  if (!hasGpu && (profile.gpus ?? 0) > 0) {
    report(
      ctx,
      [...path, "gpus"],
      "gpus is set but gpu is not; say which cards with gpu, or remove gpus to run on CPU",
    );
  }
  if (hasGpu && profile.gpus === 0) {
    report(
      ctx,
      [...path, "gpus"],
      "gpu is set but gpus is 0; give at least 1, or remove gpu to run on CPU",
    );
  }
}

function checkParallelism(profile: Profile, path: (string | number)[], ctx: Issues): void {
  const tensorParallel = profile.tensor_parallel ?? 1;
  if (profile.engine === "llamacpp" && profile.nodes > 1) {
    report(
      ctx,
      [...path, "nodes"],
      "llama.cpp serves from one node; set nodes: 1, or use vllm or sglang to span nodes",
    );
  }
  if (profile.keep_within !== undefined && profile.nodes === 1) {
    report(
      ctx,
      [...path, "keep_within"],
      `keep_within: ${profile.keep_within} keeps the shards of a replica spanning nodes together; this profile has nodes: 1, so remove keep_within or raise nodes`,
    );
  }
  if (profile.engine === "llamacpp" && tensorParallel > 1) {
    report(
      ctx,
      [...path, "tensor_parallel"],
      "llama.cpp splits layers across its node's cards by itself; remove tensor_parallel, or use vllm or sglang for tensor parallelism",
    );
    return;
  }
  const cards = (profile.gpus ?? (profile.gpu === undefined ? 0 : 1)) * profile.nodes;
  if (tensorParallel > 1 && (cards === 0 || cards % tensorParallel !== 0)) {
    report(
      ctx,
      [...path, "tensor_parallel"],
      `tensor_parallel ${tensorParallel} must divide the replica's ${cards} cards (gpus × nodes); change gpus or tensor_parallel`,
    );
  }
}

function checkProfile(profile: Profile, index: number, isEmbedding: boolean, ctx: Issues): void {
  const path = ["profiles", index];
  if (isEmbedding && !EMBEDDING_ENGINES.has(profile.engine)) {
    report(
      ctx,
      [...path, "engine"],
      `engine ${profile.engine} cannot serve embeddings; use ${[...EMBEDDING_ENGINES].join(", ")}, or remove embeddings: true`,
    );
  }
  checkGpu(profile, path, ctx);
  checkParallelism(profile, path, ctx);
  for (const refusal of checkEngineArgs(profile.engine, profile.args)) {
    report(ctx, [...path, "args", refusal.index], refusal.message);
  }
  for (const name of Object.keys(profile.env)) {
    const why = REFUSED_ENV[name];
    if (why) report(ctx, [...path, "env", name], `${name} may not be set: ${why}`);
  }
}

/**
 * An external model names its provider and, optionally, key files; with none its key is kept
 * sealed in the store (set apart from the definition, so the key never travels with it).
 */
function checkExternal(
  model: BaseModel,
  external: NonNullable<BaseModel["external"]>,
  ctx: Issues,
): void {
  if (external.api_key_file !== undefined && external.api_key_files !== undefined)
    report(ctx, ["external"], "give api_key_file or api_key_files, not both");
  if (external.api === "openai" && external.model === undefined)
    report(ctx, ["external", "model"], "external.model is the provider's name for the model");
  const files = external.api_key_files?.map((k) => k.file) ?? [];
  if (new Set(files).size !== files.length)
    report(ctx, ["external", "api_key_files"], "a key file is listed twice; list each once");
  if (model.profiles.length > 0)
    report(
      ctx,
      ["profiles"],
      "an external model is served by its provider and has no profiles; remove them",
    );
  // A parsed external model reads its url as its source, so parsing it again must accept that.
  if (model.source !== undefined && model.source !== external.url)
    report(ctx, ["source"], "an external model has no source; its provider holds the weights");
  if (model.on_demand)
    report(ctx, ["on_demand"], "an external model is never placed, so it cannot be on demand");
}

/** Whether the model's pictures are made by ComfyUI: a comfyui profile, or an external ComfyUI. */
export function isComfyuiModel(model: {
  profiles: readonly { engine: string }[];
  external?: { api: string } | undefined;
}): boolean {
  if (model.external) return model.external.api === "comfyui";
  return model.profiles.some((profile) => profile.engine === "comfyui");
}

function checkComfyui(model: BaseModel, ctx: Issues): void {
  const engines = new Set(model.profiles.map((profile) => profile.engine));
  if (!model.external && engines.has("comfyui") && engines.size > 1)
    report(
      ctx,
      ["profiles"],
      "a model served by comfyui makes pictures, which other engines cannot; give every profile engine comfyui, or make two models",
    );
  if (model.comfyui !== undefined && !isComfyuiModel(model))
    report(
      ctx,
      ["comfyui"],
      "comfyui settings apply to a model whose profiles run engine comfyui or an external model with api: comfyui; remove the block",
    );
}

function checkModel(model: BaseModel, ctx: Issues): void {
  checkComfyui(model, ctx);
  if (model.external) {
    checkExternal(model, model.external, ctx);
    if (model.adapters.length > 0)
      report(ctx, ["adapters"], "an external model's provider serves it; remove adapters");
    return;
  }
  checkSource(model, ctx);
  for (const refusal of checkAdapters(model)) report(ctx, refusal.path, refusal.message);
  if (model.profiles.length === 0) report(ctx, ["profiles"], "give at least one profile");
  if (model.replicas.min > model.replicas.max) {
    report(
      ctx,
      ["replicas"],
      `min ${model.replicas.min} is above max ${model.replicas.max}; raise max or lower min`,
    );
  }
  const seen = new Set<string>();
  model.profiles.forEach((profile, index) => {
    if (seen.has(profile.name))
      report(
        ctx,
        ["profiles", index, "name"],
        `profile "${profile.name}" is named twice; give each profile its own name`,
      );
    seen.add(profile.name);
    checkProfile(profile, index, model.embeddings, ctx);
  });
}

/** Defaults filled: a profile with a gpu holds 1 card unless it says otherwise. */
function withDefaults(model: BaseModel) {
  const profiles = model.profiles.map((profile) => ({
    ...profile,
    gpus: profile.gpus ?? (profile.gpu === undefined ? 0 : 1),
    tensor_parallel: profile.tensor_parallel ?? 1,
  }));
  // An external model's source reads as its provider's URL wherever a source is shown.
  return { ...model, source: model.source ?? model.external?.url ?? "", profiles };
}

export const modelDefinitionSchema = baseSchema.superRefine(checkModel).transform(withDefaults);

export type ModelDefinitionInput = z.input<typeof modelDefinitionSchema>;
export type ModelDefinition = z.output<typeof modelDefinitionSchema>;
export type ModelProfile = ModelDefinition["profiles"][number];
export type ParseResult = { ok: true; model: ModelDefinition } | { ok: false; errors: string[] };

export function parseModelDefinition(input: unknown): ParseResult {
  const parsed = modelDefinitionSchema.safeParse(input, { error: catalogErrorMap });
  if (parsed.success) return { ok: true, model: parsed.data };
  return { ok: false, errors: parsed.error.issues.flatMap(formatIssues) };
}
