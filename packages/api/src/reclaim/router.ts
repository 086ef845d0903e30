// Cached weights no catalog model wants: listed by default, deleted only when asked to collect.
import { reclaimInputSchema, reclaimViewSchema } from "./schemas";
import { operatorProcedure, router } from "../trpc";

export const reclaimRouter = router({
  run: operatorProcedure
    .input(reclaimInputSchema)
    .output(reclaimViewSchema)
    .mutation(({ ctx, input }) => ctx.services.reclaim.run(input.collect, ctx.actor)),
});
