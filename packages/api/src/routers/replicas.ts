// Replicas as they are now: where each runs, its phase and endpoint.
import { z } from "zod";
import { oneLine } from "../text";
import { idleReplicasSchema, replicaViewSchema } from "../schemas-models";
import { authedProcedure, router } from "../trpc";

export const replicasListInputSchema = z
  .object({
    model: oneLine("model").trim().min(1, "model filter is empty").max(200).optional(),
    node: oneLine("node").trim().min(1, "node filter is empty").max(200).optional(),
  })
  .default({});

export const replicasRouter = router({
  list: authedProcedure
    .input(replicasListInputSchema)
    .output(z.array(replicaViewSchema))
    .query(({ ctx, input }) => ctx.services.replicas.list(input)),
  idle: authedProcedure.output(idleReplicasSchema).query(({ ctx }) => ctx.services.replicas.idle()),
});
