// Replicas as they are now: where each runs, its phase and endpoint.
import { z } from "zod";
import { idleReplicasSchema, replicasListInputSchema, replicaViewSchema } from "./schemas";
import { authedProcedure, router } from "../trpc";

export const replicasRouter = router({
  list: authedProcedure
    .input(replicasListInputSchema)
    .output(z.array(replicaViewSchema))
    .query(({ ctx, input }) => ctx.services.replicas.list(input)),
  idle: authedProcedure.output(idleReplicasSchema).query(({ ctx }) => ctx.services.replicas.idle()),
});
