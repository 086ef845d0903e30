import { ServiceError } from "../context";
import { z } from "zod";
import { gpuHistorySchema, nodeViewSchema } from "../schemas";
import { authedProcedure, router } from "../trpc";
import { oneLine } from "../text";

const nodeIdInput = z.object({ id: oneLine("node id").min(1, "node id is required").max(200) });

export const nodesRouter = router({
  list: authedProcedure
    .output(z.array(nodeViewSchema))
    .query(({ ctx }) => ctx.services.nodes.list()),

  get: authedProcedure
    .input(nodeIdInput)
    .output(nodeViewSchema)
    .query(async ({ ctx, input }) => {
      const node = await ctx.services.nodes.get(input.id);
      if (!node)
        throw new ServiceError("not_found", `node "${input.id}" is not known`, {
          code: "node.not_found",
          params: { node: input.id },
        });
      return node;
    }),

  history: authedProcedure
    .input(nodeIdInput)
    .output(gpuHistorySchema)
    .query(async ({ ctx, input }) => {
      const history = await ctx.services.nodes.history(input.id);
      if (!history)
        throw new ServiceError("not_found", `node "${input.id}" is not known`, {
          code: "node.not_found",
          params: { node: input.id },
        });
      return history;
    }),
});
