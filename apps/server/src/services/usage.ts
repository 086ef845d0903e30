// Usage reports from `usage_records`: sums per owner and model over a time range.
import { and, eq, gt, lt, sql, usageRecords, type Database } from "@llmgw/db";
import {
  ServiceError,
  type UsageQueryInput,
  type UsageReport,
  type UsageService,
} from "@llmgw/api";

const DEFAULT_RANGE_MS = 24 * 3_600_000;

export function createUsageService(db: Database, nowMs: () => number): UsageService {
  return {
    async query(input: UsageQueryInput): Promise<UsageReport> {
      const until = input.until ? new Date(input.until) : new Date(nowMs());
      const since = input.since
        ? new Date(input.since)
        : new Date(until.getTime() - DEFAULT_RANGE_MS);
      if (since >= until)
        throw new ServiceError(
          "invalid",
          `since (${since.toISOString()}) must be before until (${until.toISOString()})`,
        );
      const where = and(
        gt(usageRecords.at, since),
        lt(usageRecords.at, until),
        input.owner ? eq(usageRecords.owner, input.owner) : undefined,
        input.model ? eq(usageRecords.model, input.model) : undefined,
      );
      const rows = await db
        .select({
          owner: usageRecords.owner,
          model: usageRecords.model,
          requests: sql<number>`count(*)`.mapWith(Number),
          errors: sql<number>`count(*) filter (where ${usageRecords.status} >= 400)`.mapWith(
            Number,
          ),
          promptTokens: sql<number>`coalesce(sum(${usageRecords.promptTokens}), 0)`.mapWith(Number),
          completionTokens: sql<number>`coalesce(sum(${usageRecords.completionTokens}), 0)`.mapWith(
            Number,
          ),
          latencyMsAvg: sql<number>`coalesce(avg(${usageRecords.latencyMs}), 0)`.mapWith(Number),
        })
        .from(usageRecords)
        .where(where)
        .groupBy(usageRecords.owner, usageRecords.model)
        .orderBy(usageRecords.owner, usageRecords.model);
      return { since: since.toISOString(), until: until.toISOString(), rows };
    },
  };
}
