// Stored releases: listed and removed here; added by an upload to PUT /api/releases/<file>, which
// streams a file too large for a tRPC body. Admins only: a release runs on every machine.
import { z } from "zod";
import { adminProcedure, listQuery, router } from "../trpc";
import { releaseRemoveInputSchema, releaseViewSchema } from "./schemas";

export const releasesRouter = router({
  list: listQuery(releaseViewSchema, (services) => services.releases.list(), adminProcedure),
  remove: adminProcedure
    .input(releaseRemoveInputSchema)
    .output(z.object({ version: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.releases.remove(input.version, ctx.actor)),
});
