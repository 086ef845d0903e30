// Shapes the usage series for charts: one row per time bucket (every bucket of the range, so an
// idle stretch shows as zero instead of a line drawn across it) with one column per group.
import type { UsageSeries } from "@llmgw/api";

export type UsagePoint = UsageSeries["points"][number];
export type ChartRow = { bucketMs: number } & Record<string, number | null>;

export function bucketStartsMs(
  sinceIso: string,
  untilIso: string,
  bucketSeconds: number,
): number[] {
  const widthMs = bucketSeconds * 1000;
  const first = Math.floor(Date.parse(sinceIso) / widthMs) * widthMs;
  const until = Date.parse(untilIso);
  const starts: number[] = [];
  for (let at = first; at < until; at += widthMs) starts.push(at);
  return starts;
}

/** Groups by total requests, busiest first, so colours and the legend stay stable between refreshes. */
export function seriesGroups(series: UsageSeries): string[] {
  return [...series.totals]
    .sort((a, b) => b.requests - a.requests || a.group.localeCompare(b.group, "en"))
    .map((total) => total.group);
}

/**
 * Counts fill missing buckets with 0; latencies leave them null (no requests means no latency,
 * not a latency of zero).
 */
export function chartRows(
  series: UsageSeries,
  value: (point: UsagePoint) => number | null,
  missing: 0 | null,
): ChartRow[] {
  const groups = seriesGroups(series);
  const byBucket = new Map<number, Map<string, UsagePoint>>();
  for (const point of series.points) {
    const at = Date.parse(point.bucket);
    const row = byBucket.get(at) ?? new Map<string, UsagePoint>();
    row.set(point.group, point);
    byBucket.set(at, row);
  }
  return bucketStartsMs(series.since, series.until, series.bucketSeconds).map((bucketMs) => {
    const row: ChartRow = { bucketMs };
    for (const group of groups) {
      const point = byBucket.get(bucketMs)?.get(group);
      row[group] = point ? value(point) : missing;
    }
    return row;
  });
}

export function errorRatePercent(requests: number, errors: number): number | null {
  return requests === 0 ? null : (errors / requests) * 100;
}
