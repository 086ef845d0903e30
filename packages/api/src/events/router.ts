// Fleet events: the newest first with filters and cursor paging, and what still needs a look.
import {
  eventsAcknowledgeInputSchema,
  eventsAttentionSchema,
  eventsListInputSchema,
  eventsPageSchema,
} from "./schemas";
import { authedProcedure, operatorProcedure, router } from "../trpc";
import { z } from "zod";

export const eventsRouter = router({
  list: authedProcedure
    .input(eventsListInputSchema)
    .output(eventsPageSchema)
    .query(({ ctx, input }) => ctx.services.events.list(input)),

  attention: authedProcedure
    .output(eventsAttentionSchema)
    .query(({ ctx }) => ctx.services.events.attention()),

  acknowledge: operatorProcedure
    .input(eventsAcknowledgeInputSchema)
    .output(z.object({ acknowledged: z.number() }))
    .mutation(({ ctx, input }) => ctx.services.events.acknowledge(input.upToId, ctx.actor)),
});
