// The cluster at a glance: capacity per GPU class, free whole nodes, what is short and why.
import { clusterStatusSchema } from "./schemas";
import { authedProcedure, router } from "../trpc";

export const statusRouter = router({
  get: authedProcedure.output(clusterStatusSchema).query(({ ctx }) => ctx.services.status.get()),
});
