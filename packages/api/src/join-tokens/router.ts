// Join tokens for new nodes: create (the token is answered once), list, revoke, and the facts a
// join command needs (agent port addresses, CA fingerprint). A token lets a machine become a
// node that receives replicas and their keys, so all of it is for admins.
import { z } from "zod";
import {
  createdJoinTokenSchema,
  createJoinTokenInputSchema,
  joinInfoSchema,
  joinTokenIdInputSchema,
  joinTokenViewSchema,
} from "./schemas";
import { adminProcedure, router } from "../trpc";

export const joinTokensRouter = router({
  create: adminProcedure
    .input(createJoinTokenInputSchema)
    .output(createdJoinTokenSchema)
    .mutation(({ ctx, input }) => ctx.services.joinTokens.create(input, ctx.actor)),

  list: adminProcedure
    .output(z.array(joinTokenViewSchema))
    .query(({ ctx }) => ctx.services.joinTokens.list()),

  revoke: adminProcedure
    .input(joinTokenIdInputSchema)
    .output(joinTokenViewSchema)
    .mutation(({ ctx, input }) => ctx.services.joinTokens.revoke(input.id, ctx.actor)),

  joinInfo: adminProcedure
    .output(joinInfoSchema)
    .query(({ ctx }) => ctx.services.joinTokens.joinInfo()),
});
