// API keys for /v1: create (the plaintext is answered once), list, revoke. A key belongs to an
// owner; only an admin or an operator of that owner (or the person it belongs to, as an operator)
// may make or revoke it, and people see the keys of owners they hold a role on.
import { z } from "zod";
import { createdKeySchema, createKeyInputSchema, keyIdInputSchema, keyViewSchema } from "./schemas";
import { authedProcedure, ownerOperatorProcedure, requireOn, router } from "../trpc";
import { visibleKeys } from "./visible-keys";

export const keysRouter = router({
  create: ownerOperatorProcedure
    .input(createKeyInputSchema)
    .output(createdKeySchema)
    .mutation(async ({ ctx, input }) => {
      await requireOn(ctx, "operator", input.owner);
      return ctx.services.keys.create(input, ctx.actor);
    }),

  list: authedProcedure
    .output(z.array(keyViewSchema))
    .query(async ({ ctx }) =>
      visibleKeys(await ctx.services.keys.list(), ctx.user, ctx.services.ownership),
    ),

  revoke: ownerOperatorProcedure
    .input(keyIdInputSchema)
    .output(keyViewSchema)
    .mutation(async ({ ctx, input }) => {
      // An unknown id falls through to the service, which names it in its not_found answer.
      const key = await ctx.services.keys.get(input.id);
      if (key) await requireOn(ctx, "operator", key.owner);
      return ctx.services.keys.revoke(input.id, ctx.actor);
    }),
});
