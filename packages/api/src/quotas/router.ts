// Quotas: anyone signed in may see what each scope holds against its quota; only admins set or
// remove one, as they decide how the fleet is shared between teams.
import { adminProcedure, listQuery, router } from "../trpc";
import { quotaScopeInputSchema, scopeQuotaViewSchema, setQuotaInputSchema } from "./schemas";

export const quotasRouter = router({
  list: listQuery(scopeQuotaViewSchema, (services) => services.quotas.list()),

  set: adminProcedure
    .input(setQuotaInputSchema)
    .output(scopeQuotaViewSchema)
    .mutation(({ ctx, input }) => ctx.services.quotas.set(input, ctx.actor)),

  remove: adminProcedure
    .input(quotaScopeInputSchema)
    .mutation(({ ctx, input }) => ctx.services.quotas.remove(input.scope, ctx.actor)),
});
