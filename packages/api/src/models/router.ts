// The catalog: what the cluster should serve, why a model is or is not placed, and the presets.
import {
  addModelInputSchema,
  modelNameInputSchema,
  modelViewSchema,
  placementExplanationSchema,
  presetViewSchema,
  resizeResultSchema,
  setModelContextInputSchema,
  setModelGpusInputSchema,
  setModelResourcesInputSchema,
  setFallbacksInputSchema,
  setModelKeyInputSchema,
  setModelOwnerInputSchema,
} from "./schemas";
import {
  adminProcedure,
  answerOk,
  authedProcedure,
  listQuery,
  operatorProcedure,
  router,
} from "../trpc";

export const modelsRouter = router({
  list: listQuery(modelViewSchema, (services) => services.models.list()),

  get: authedProcedure
    .input(modelNameInputSchema)
    .output(modelViewSchema)
    .query(({ ctx, input }) => ctx.services.models.get(input.name)),

  add: operatorProcedure
    .input(addModelInputSchema)
    .output(modelViewSchema)
    .mutation(({ ctx, input }) => ctx.services.models.add(input, ctx.actor)),

  remove: operatorProcedure
    .input(modelNameInputSchema)
    .mutation(({ ctx, input }) => answerOk(ctx.services.models.remove(input.name, ctx.actor))),

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

  /** Who the model's replicas count against; changing it restarts nothing. */
  setOwner: operatorProcedure
    .input(setModelOwnerInputSchema)
    .output(modelViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.models.setOwner(input.model, input.owner, ctx.actor),
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

  presets: listQuery(presetViewSchema, (services) => services.models.presets()),

  /** Sizing restarts every replica of the model, so it is an admin's call. */
  setGpus: adminProcedure
    .input(setModelGpusInputSchema)
    .output(resizeResultSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setGpus(input, ctx.actor)),

  setContext: adminProcedure
    .input(setModelContextInputSchema)
    .output(resizeResultSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setContext(input, ctx.actor)),

  setResources: adminProcedure
    .input(setModelResourcesInputSchema)
    .output(resizeResultSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setResources(input, ctx.actor)),
});
