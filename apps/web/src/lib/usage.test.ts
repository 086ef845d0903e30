import { describe, expect, it } from "vitest";
import type { UsageSeries } from "@llmgw/api";
import { bucketStartsMs, chartRows, errorRatePercent, seriesGroups } from "./usage";

const stats = {
  errors: 0,
  promptTokens: 1,
  completionTokens: 2,
  latencyMsP50: 10,
  latencyMsP95: 20,
};
const series: UsageSeries = {
  since: "2030-01-01T00:00:30.000Z",
  until: "2030-01-01T00:03:30.000Z",
  bucketSeconds: 60,
  groupBy: "model",
  points: [
    { bucket: "2030-01-01T00:01:00.000Z", group: "b", requests: 2, ...stats },
    { bucket: "2030-01-01T00:01:00.000Z", group: "a", requests: 1, ...stats },
    { bucket: "2030-01-01T00:03:00.000Z", group: "b", requests: 5, ...stats, latencyMsP95: 99 },
  ],
  totals: [
    { group: "a", requests: 1, ...stats },
    { group: "b", requests: 7, ...stats },
  ],
};

describe("usage chart rows", () => {
  it("covers every bucket of the range from the aligned start", () => {
    expect(
      bucketStartsMs(series.since, series.until, 60).map((ms) => new Date(ms).toISOString()),
    ).toEqual([
      "2030-01-01T00:00:00.000Z",
      "2030-01-01T00:01:00.000Z",
      "2030-01-01T00:02:00.000Z",
      "2030-01-01T00:03:00.000Z",
    ]);
  });

  it("puts the busiest group first and fills idle buckets with 0 for counts, null for latency", () => {
    expect(seriesGroups(series)).toEqual(["b", "a"]);
    const requests = chartRows(series, (p) => p.requests, 0);
    expect(requests.map((row) => [row.b, row.a])).toEqual([
      [0, 0],
      [2, 1],
      [0, 0],
      [5, 0],
    ]);
    const p95 = chartRows(series, (p) => p.latencyMsP95, null);
    expect(p95.map((row) => row.b)).toEqual([null, 20, null, 99]);
  });

  it("gives no error rate without requests", () => {
    expect(errorRatePercent(0, 0)).toBeNull();
    expect(errorRatePercent(8, 2)).toBe(25);
  });
});
