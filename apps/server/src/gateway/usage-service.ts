// Usage reports from `usage_records`: sums per owner and model over a time range, and time buckets
// with latency percentiles for the console's charts. Everything is computed in SQL that PGlite and
// PostgreSQL both run (percentile_cont, floor over epoch seconds). The failed requests one by one
// are failed-requests.ts.
import { and, eq, gt, gte, lt, sql, usageRecords, type Database } from "@llmgw/db";
import {
  USAGE_RANGES,
  type UsageQueryInput,
  type UsageReport,
  type UsageSeries,
  type UsageSeriesInput,
  type UsageService,
} from "@llmgw/api";
import { failedRequests } from "./failed-requests";
import { usageWindow } from "./usage-window";

export function createUsageService(db: Database, nowMs: () => number): UsageService {
  return {
    async query(input: UsageQueryInput): Promise<UsageReport> {
      const { since, until } = usageWindow(input, nowMs());
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
    series: (input) => usageSeries(db, input, nowMs()),
    failed: (input) => failedRequests(db, input, nowMs()),
  };
}

function statsColumns() {
  const latency = usageRecords.latencyMs;
  const nullableNumber = (v: unknown) => (v === null ? null : Number(v));
  return {
    requests: sql<number>`count(*)`.mapWith(Number),
    errors: sql<number>`count(*) filter (where ${usageRecords.status} >= 400)`.mapWith(Number),
    promptTokens: sql<number>`coalesce(sum(${usageRecords.promptTokens}), 0)`.mapWith(Number),
    completionTokens: sql<number>`coalesce(sum(${usageRecords.completionTokens}), 0)`.mapWith(
      Number,
    ),
    latencyMsP50: sql<
      number | null
    >`percentile_cont(0.5) within group (order by ${latency})`.mapWith(nullableNumber),
    latencyMsP95: sql<
      number | null
    >`percentile_cont(0.95) within group (order by ${latency})`.mapWith(nullableNumber),
  };
}

async function usageSeries(
  db: Database,
  input: UsageSeriesInput,
  nowMs: number,
): Promise<UsageSeries> {
  const { rangeSeconds, bucketSeconds } = USAGE_RANGES[input.range];
  const until = new Date(nowMs);
  const since = new Date(nowMs - rangeSeconds * 1_000);
  const groupColumn = input.groupBy === "owner" ? usageRecords.owner : usageRecords.model;
  const where = and(
    gte(usageRecords.at, since),
    lt(usageRecords.at, until),
    input.owner ? eq(usageRecords.owner, input.owner) : undefined,
    input.model ? eq(usageRecords.model, input.model) : undefined,
  );
  // The width comes from a fixed table, never from the caller, so it is inlined: a bound parameter
  // in both SELECT and GROUP BY would be two different expressions to PostgreSQL.
  const width = sql.raw(String(bucketSeconds));
  const bucket = sql<Date>`to_timestamp(floor(extract(epoch from ${usageRecords.at}) / ${width}) * ${width})`;
  const [points, totals] = await Promise.all([
    db
      .select({
        bucket: bucket.mapWith((v) => new Date(v as string)),
        group: groupColumn,
        ...statsColumns(),
      })
      .from(usageRecords)
      .where(where)
      .groupBy(sql`1`, sql`2`)
      .orderBy(sql`1`, sql`2`),
    db
      .select({ group: groupColumn, ...statsColumns() })
      .from(usageRecords)
      .where(where)
      .groupBy(groupColumn)
      .orderBy(groupColumn),
  ]);
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    bucketSeconds,
    groupBy: input.groupBy,
    points: points.map((p) => ({ ...p, bucket: p.bucket.toISOString() })),
    totals,
  };
}
