"use client";
// Usage of /v1 over a chosen range: requests, tokens, latency and errors in time buckets per model
// or per owner (recharts), and a table of the range's totals with p50/p95. Refreshes by itself.
// Operators also see the range's failed requests one by one, each linking to its node's log.
import type { UsageRange, UsageSeries } from "@llmgw/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite } from "../../hooks/use-can-write";
import { formatNumber } from "../../lib/format";
import { chartRows, seriesGroups } from "../../lib/usage";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { FailedRequests } from "./failed-requests";
import { UsageChart } from "./usage-chart";
import { UsageTable } from "./usage-table";

const USAGE_REFETCH_INTERVAL_MS = 10_000;
const RANGES: readonly UsageRange[] = ["1h", "24h", "7d"];
const BUCKET_LABELS = { "1h": "minute", "24h": "halfHour", "7d": "threeHours" } as const;
type GroupBy = UsageSeries["groupBy"];

function Charts({ series, range }: { series: UsageSeries; range: UsageRange }) {
  const { t, i18n } = useTranslation("usage");
  const lang = i18n.language;
  const groups = useMemo(() => seriesGroups(series), [series]);
  const bucket = t(`bucket.${BUCKET_LABELS[range]}`);
  const count = (value: number) =>
    new Intl.NumberFormat(lang, { notation: "compact", maximumFractionDigits: 1 }).format(value);
  const ms = (value: number) => t("ms", { value: formatNumber(value, lang) });
  return (
    <div className="chart-grid">
      <UsageChart
        title={t("charts.requests", { bucket })}
        testId="usage-chart-requests"
        rows={chartRows(series, (p) => p.requests, 0)}
        groups={groups}
        range={range}
        kind="area"
        formatValue={count}
      />
      <UsageChart
        title={t("charts.tokens", { bucket })}
        testId="usage-chart-tokens"
        rows={chartRows(series, (p) => p.promptTokens + p.completionTokens, 0)}
        groups={groups}
        range={range}
        kind="area"
        formatValue={count}
      />
      <UsageChart
        title={t("charts.latency")}
        testId="usage-chart-latency"
        rows={chartRows(series, (p) => p.latencyMsP95, null)}
        groups={groups}
        range={range}
        kind="line"
        formatValue={ms}
        formatTick={count}
      />
      <UsageChart
        title={t("charts.errors", { bucket })}
        testId="usage-chart-errors"
        rows={chartRows(series, (p) => p.errors, 0)}
        groups={groups}
        range={range}
        kind="area"
        formatValue={count}
      />
    </div>
  );
}

export function UsagePage() {
  const { t } = useTranslation("usage");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const [range, setRange] = useState<UsageRange>("1h");
  const [groupBy, setGroupBy] = useState<GroupBy>("model");
  const canSeeFailures = useCanWrite();
  const seriesQuery = useQuery(
    trpc.usage.series.queryOptions(
      { range, groupBy },
      { refetchInterval: USAGE_REFETCH_INTERVAL_MS, placeholderData: keepPreviousData },
    ),
  );
  const series = seriesQuery.data;
  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <div className="segmented" role="group" aria-label={t("range")}>
          {RANGES.map((id) => (
            <button
              key={id}
              type="button"
              className="control"
              aria-pressed={range === id}
              onClick={() => setRange(id)}
              data-testid={`usage-range-${id}`}
            >
              {t(`ranges.${id}`)}
            </button>
          ))}
        </div>
        <label className="inline-field">
          <span className="muted">{t("groupBy")}</span>
          <select
            value={groupBy}
            onChange={(event) => setGroupBy(event.target.value as GroupBy)}
            data-testid="usage-group"
          >
            <option value="model">{t("groups.model")}</option>
            <option value="owner">{t("groups.owner")}</option>
          </select>
        </label>
        <div className="top-bar-spacer" />
        <span className="status status-live">{t("refreshed")}</span>
      </div>
      {seriesQuery.isError && !series ? (
        <ErrorPanel
          error={seriesQuery.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void seriesQuery.refetch()}
        />
      ) : null}
      {seriesQuery.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {series && series.totals.length === 0 ? (
        <div className="panel muted" data-testid="usage-empty">
          {t("empty")}
        </div>
      ) : null}
      {series && series.totals.length > 0 ? (
        <>
          <div className="table-scroll">
            <UsageTable series={series} />
          </div>
          <Charts series={series} range={range} />
        </>
      ) : null}
      {canSeeFailures ? <FailedRequests range={range} /> : null}
    </section>
  );
}
