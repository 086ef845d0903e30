// The last lines of a node's agent log or of one replica's engine, or the lines naming one request,
// fetched from the node itself.
import { logsInputSchema, logsViewSchema } from "./schemas";
import { authedProcedure, router } from "../trpc";

export const logsRouter = router({
  get: authedProcedure
    .input(logsInputSchema)
    .output(logsViewSchema)
    .query(({ ctx, input }) =>
      ctx.services.logs.get(input.node, input.source, input.lines, {
        requestId: input.requestId,
        everySource: input.everySource,
      }),
    ),
});
