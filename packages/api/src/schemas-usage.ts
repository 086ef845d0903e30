// Usage of /v1, summed per owner and model over a time range.
import { z } from "zod";

export const usageQueryInputSchema = z
  .object({
    owner: z.string().trim().min(1).max(200).optional(),
    model: z.string().trim().min(1).max(200).optional(),
    /** ISO-8601; default: 24 hours before `until`. */
    since: z.iso
      .datetime({
        offset: true,
        message: "since must be an ISO-8601 time like 2030-01-01T00:00:00Z",
      })
      .optional(),
    /** ISO-8601; default: now. */
    until: z.iso
      .datetime({
        offset: true,
        message: "until must be an ISO-8601 time like 2030-01-01T00:00:00Z",
      })
      .optional(),
  })
  .default({});
export type UsageQueryInput = z.infer<typeof usageQueryInputSchema>;

export const usageRowSchema = z.object({
  owner: z.string(),
  model: z.string(),
  requests: z.number(),
  /** Answers with a status of 400 or more. */
  errors: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  latencyMsAvg: z.number(),
});
export type UsageRow = z.infer<typeof usageRowSchema>;

export const usageReportSchema = z.object({
  since: z.string(),
  until: z.string(),
  rows: z.array(usageRowSchema),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
