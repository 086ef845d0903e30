// The catalog: what the cluster should serve, why a model is or is not placed, and the presets.
import { z } from "zod";
import {
  addModelInputSchema,
  modelNameInputSchema,
  modelViewSchema,
  placementExplanationSchema,
  presetViewSchema,
  setFallbacksInputSchema,
  setModelKeyInputSchema,
} from "./schemas";
import { authedProcedure, operatorProcedure, router } from "../trpc";

export const modelsRouter = router({
  list: authedProcedure
    .output(z.array(modelViewSchema))
    .query(({ ctx }) => ctx.services.models.list()),

  get: authedProcedure
    .input(modelNameInputSchema)
    .output(modelViewSchema)
    .query(({ ctx, input }) => ctx.services.models.get(input.name)),

  add: operatorProcedure
    .input(addModelInputSchema)
    .output(modelViewSchema)
    .mutation(({ ctx, input }) => ctx.services.models.add(input, ctx.actor)),

  remove: operatorProcedure.input(modelNameInputSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.models.remove(input.name, ctx.actor);
    return { ok: true as const };
  }),

  retry: operatorProcedure
    .input(modelNameInputSchema)
    .output(modelViewSchema)
    .mutation(({ ctx, input }) => ctx.services.models.retry(input.name, ctx.actor)),

  setFallbacks: operatorProcedure
    .input(setFallbacksInputSchema)
    .output(modelViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.models.setFallbacks(input.name, input.fallbacks, ctx.actor),
    ),

  /** The key goes in and is sealed; the answer says only whether one is set. */
  setKey: operatorProcedure
    .input(setModelKeyInputSchema)
    .output(modelViewSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setKey(input.name, input.key, ctx.actor)),

  explainPlacement: authedProcedure
    .input(modelNameInputSchema)
    .output(placementExplanationSchema)
    .query(({ ctx, input }) => ctx.services.models.explainPlacement(input.name)),

  presets: authedProcedure
    .output(z.array(presetViewSchema))
    .query(({ ctx }) => ctx.services.models.presets()),
});
