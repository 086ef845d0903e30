// Federation administration: peer clusters. Administrators only: a peer's key spends the peer's
// capacity, and a peer receives this cluster's prompts.
import { z } from "zod";
import {
  federationAddInputSchema,
  federationNameInputSchema,
  federationSyncInputSchema,
  federationSyncResultSchema,
  peerViewSchema,
} from "./schemas";
import { adminProcedure, listQuery, router } from "../trpc";

export const federationRouter = router({
  list: listQuery(peerViewSchema, (services) => services.federation.list(), adminProcedure),
  add: adminProcedure
    .input(federationAddInputSchema)
    .output(peerViewSchema)
    .mutation(({ ctx, input }) => ctx.services.federation.add(input, ctx.actor)),
  remove: adminProcedure
    .input(federationNameInputSchema)
    .output(z.object({ name: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.federation.remove(input.name, ctx.actor)),
  sync: adminProcedure
    .input(federationSyncInputSchema)
    .output(z.array(federationSyncResultSchema))
    .mutation(({ ctx, input }) => ctx.services.federation.sync(input.name ?? null)),
});
