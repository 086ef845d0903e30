// What /v1 was used for: requests and tokens per owner and model over a time range, and the same
// in time buckets with latency percentiles for the console's charts; the failed requests one by one
// with the node each ran on.
import {
  usageQueryInputSchema,
  usageReportSchema,
  usageSeriesInputSchema,
  usageSeriesSchema,
} from "./schemas";
import { failedRequestsInputSchema, failedRequestsPageSchema } from "./failed-schemas";
import { authedProcedure, operatorProcedure, router } from "../trpc";

export const usageRouter = router({
  query: operatorProcedure
    .input(usageQueryInputSchema)
    .output(usageReportSchema)
    .query(({ ctx, input }) => ctx.services.usage.query(input)),

  series: authedProcedure
    .input(usageSeriesInputSchema)
    .output(usageSeriesSchema)
    .query(({ ctx, input }) => ctx.services.usage.series(input)),

  failed: operatorProcedure
    .input(failedRequestsInputSchema)
    .output(failedRequestsPageSchema)
    .query(({ ctx, input }) => ctx.services.usage.failed(input)),
});
