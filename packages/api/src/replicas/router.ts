// Replicas as they are now: where each runs, its phase and endpoint.
import { z } from "zod";
import {
  benchAccessInputSchema,
  benchAccessSchema,
  idleReplicasSchema,
  replicasListInputSchema,
  replicaViewSchema,
} from "./schemas";
import { replicaCardsSchema } from "./cards";
import { replicasPageInputSchema, replicasPageOf, replicasPageSchema } from "./table";
import { adminProcedure, authedProcedure, router } from "../trpc";

export const replicasRouter = router({
  list: authedProcedure
    .input(replicasListInputSchema)
    .output(z.array(replicaViewSchema))
    .query(({ ctx, input }) => ctx.services.replicas.list(input)),
  /** A window of the list, sorted (and of one model) on the server: the console's replicas table. */
  page: authedProcedure
    .input(replicasPageInputSchema)
    .output(replicasPageSchema)
    .query(async ({ ctx, input }) =>
      replicasPageOf(
        await ctx.services.replicas.list(input.model === undefined ? {} : { model: input.model }),
        input,
      ),
    ),
  /** Which replica holds which card, for the heatmap's tooltips: a light form of `list`. */
  cards: authedProcedure
    .output(replicaCardsSchema)
    .query(({ ctx }) => ctx.services.replicas.cards()),
  idle: authedProcedure.output(idleReplicasSchema).query(({ ctx }) => ctx.services.replicas.idle()),
  /** A ready replica's address and engine key, for `ctl bench` to load it directly (audited). */
  benchAccess: adminProcedure
    .input(benchAccessInputSchema)
    .output(benchAccessSchema)
    .mutation(({ ctx, input }) => ctx.services.replicas.benchAccess(input, ctx.actor)),
});
