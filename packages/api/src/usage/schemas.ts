// Usage of /v1, summed per owner and model over a time range.
import { z } from "zod";
import { oneLine } from "../text";

export const usageQueryInputSchema = z
  .object({
    owner: oneLine("owner").trim().min(1).max(200).optional(),
    model: oneLine("model").trim().min(1).max(200).optional(),
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

/** The console's time ranges, each with the bucket width its chart uses. */
export const USAGE_RANGES = {
  "1h": { rangeSeconds: 3_600, bucketSeconds: 60 },
  "24h": { rangeSeconds: 86_400, bucketSeconds: 1_800 },
  "7d": { rangeSeconds: 7 * 86_400, bucketSeconds: 3 * 3_600 },
} as const;
export const usageRangeSchema = z.enum(["1h", "24h", "7d"]);
export type UsageRange = z.infer<typeof usageRangeSchema>;

export const usageSeriesInputSchema = z.object({
  range: usageRangeSchema.default("24h"),
  /** What each series is: one per model or one per owner. */
  groupBy: z.enum(["model", "owner"]).default("model"),
  owner: oneLine("owner").trim().min(1).max(200).optional(),
  model: oneLine("model").trim().min(1).max(200).optional(),
});
export type UsageSeriesInput = z.infer<typeof usageSeriesInputSchema>;

const usageStatsShape = {
  group: z.string(),
  requests: z.number(),
  errors: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  /** Latency percentiles over the requests in the bucket (or range); null when none. */
  latencyMsP50: z.number().nullable(),
  latencyMsP95: z.number().nullable(),
};

export const usageSeriesSchema = z.object({
  since: z.string(),
  until: z.string(),
  bucketSeconds: z.number(),
  groupBy: z.enum(["model", "owner"]),
  /** One row per bucket and group that had requests; buckets are ISO start times. */
  points: z.array(z.object({ bucket: z.string(), ...usageStatsShape })),
  /** The whole range per group. */
  totals: z.array(z.object(usageStatsShape)),
});
export type UsageSeries = z.infer<typeof usageSeriesSchema>;
