// API keys for /v1: create (the plaintext is answered once), list, revoke.
import { z } from "zod";
import {
  createdKeySchema,
  createKeyInputSchema,
  keyIdInputSchema,
  keyViewSchema,
} from "../schemas-keys";
import { authedProcedure, operatorProcedure, router } from "../trpc";

export const keysRouter = router({
  create: operatorProcedure
    .input(createKeyInputSchema)
    .output(createdKeySchema)
    .mutation(({ ctx, input }) => ctx.services.keys.create(input, ctx.actor)),

  // Viewers may see the keys (never a secret: only the visible prefix); changes need an operator.
  list: authedProcedure.output(z.array(keyViewSchema)).query(({ ctx }) => ctx.services.keys.list()),

  revoke: operatorProcedure
    .input(keyIdInputSchema)
    .output(keyViewSchema)
    .mutation(({ ctx, input }) => ctx.services.keys.revoke(input.id, ctx.actor)),
});
