// What /v1 was used for: requests and tokens per owner and model over a time range.
import { usageQueryInputSchema, usageReportSchema } from "../schemas-usage";
import { operatorProcedure, router } from "../trpc";

export const usageRouter = router({
  query: operatorProcedure
    .input(usageQueryInputSchema)
    .output(usageReportSchema)
    .query(({ ctx, input }) => ctx.services.usage.query(input)),
});
