// Mirrors: anyone signed in may look; removing a file from a mirror is an operator's change, and
// is refused for a file a catalog model loads.
import { mirrorRemoveInputSchema, mirrorRemoveResultSchema, mirrorViewSchema } from "./schemas";
import { listQuery, operatorProcedure, router } from "../trpc";

export const mirrorsRouter = router({
  list: listQuery(mirrorViewSchema, (services) => services.mirrors.list()),
  remove: operatorProcedure
    .input(mirrorRemoveInputSchema)
    .output(mirrorRemoveResultSchema)
    .mutation(({ ctx, input }) => ctx.services.mirrors.remove(input.mirror, input.path, ctx.actor)),
});
