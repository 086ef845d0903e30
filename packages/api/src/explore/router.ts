// The explorer: a query in effect, but a mutation so a pasted config.json travels in the body.
import { exploreAnswerSchema, exploreInputSchema } from "./schemas";
import { authedProcedure, router } from "../trpc";

export const exploreRouter = router({
  run: authedProcedure
    .input(exploreInputSchema)
    .output(exploreAnswerSchema)
    .mutation(({ ctx, input }) => ctx.services.explore.run(input.configs ?? [])),
});
