// The explorer: what fits this fleet now, for the presets, the catalog and config.json files given.
import { z } from "zod";
import { multiLine, oneLine } from "../text";

/** One config.json is a few kilobytes; a quarter of a megabyte leaves room and refuses a flood. */
export const EXPLORE_CONFIG_CHARS_MAX = 262_144;
export const EXPLORE_CONFIGS_MAX = 16;

export const exploreInputSchema = z.strictObject({
  configs: z
    .array(
      z.strictObject({
        name: oneLine("config name").trim().min(1, "config name is required").max(200),
        json: multiLine("config json")
          .min(1, "config json is required")
          .max(
            EXPLORE_CONFIG_CHARS_MAX,
            `config json is longer than ${EXPLORE_CONFIG_CHARS_MAX} characters`,
          ),
      }),
    )
    .max(EXPLORE_CONFIGS_MAX, `at most ${EXPLORE_CONFIGS_MAX} configs at once`)
    .optional(),
});
export type ExploreInput = z.infer<typeof exploreInputSchema>;

const sizingNoteSchema = z.object({
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  text: z.string(),
});
export type ExploreNote = z.infer<typeof sizingNoteSchema>;

export const exploreGpuOptionSchema = z.object({
  gpuClass: z.string(),
  cardMemoryGb: z.number(),
  bestNode: z.string(),
  cardsFreeOnBestNode: z.number().int(),
  cardsFree: z.number().int(),
  verdict: z.enum(["fits", "shrunk", "needs_more_cards", "too_large"]),
  cards: z.number().int(),
  tensorParallel: z.number().int(),
  expertParallel: z.boolean(),
  contextTokens: z.number().int(),
  contextTokensTrained: z.number().int().optional(),
  cardsForWeights: z.number().int().optional(),
  cardsForFullContext: z.number().int().optional(),
  notes: z.array(sizingNoteSchema),
});
export type ExploreGpuOptionView = z.infer<typeof exploreGpuOptionSchema>;

export const exploreCpuOptionSchema = z.object({
  node: z.string(),
  memoryGb: z.number(),
  fitsMemory: z.boolean(),
  memoryReadGbPerSecond: z.number().optional(),
  tokensPerSecond: z.number().optional(),
});
export type ExploreCpuOptionView = z.infer<typeof exploreCpuOptionSchema>;

export const exploreModelSchema = z.object({
  name: z.string(),
  origin: z.enum(["preset", "catalog", "config"]),
  architecture: z.string(),
  parametersBillions: z.number(),
  activeParametersBillions: z.number(),
  weightGb: z.number(),
  gpu: z.array(exploreGpuOptionSchema),
  cpu: z.array(exploreCpuOptionSchema),
  fitsNow: z.boolean(),
  needs: sizingNoteSchema.optional(),
  notes: z.array(sizingNoteSchema),
});
export type ExploreModelView = z.infer<typeof exploreModelSchema>;

export const exploreAnswerSchema = z.object({ models: z.array(exploreModelSchema) });
export type ExploreAnswer = z.infer<typeof exploreAnswerSchema>;
