// The RDMA fabric between two nodes, measured by their agents. Admins only: it runs perftest on
// both nodes (installing it the first time) and loads their links for the run.
import { fabricTestInputSchema, fabricTestViewSchema } from "./schemas";
import { adminProcedure, router } from "../trpc";

export const fabricRouter = router({
  test: adminProcedure
    .input(fabricTestInputSchema)
    .output(fabricTestViewSchema)
    .mutation(({ ctx, input }) => ctx.services.fabric.test(input, ctx.actor)),
});
