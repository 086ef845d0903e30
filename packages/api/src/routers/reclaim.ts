// Cached weights no catalog model wants: listed by default, deleted only when asked to collect.
import { z } from "zod";
import { reclaimViewSchema } from "../schemas-models";
import { operatorProcedure, router } from "../trpc";

export const reclaimInputSchema = z
  .object({ collect: z.boolean().default(false) })
  .default({ collect: false });

export const reclaimRouter = router({
  run: operatorProcedure
    .input(reclaimInputSchema)
    .output(reclaimViewSchema)
    .mutation(({ ctx, input }) => ctx.services.reclaim.run(input.collect, ctx.actor)),
});
