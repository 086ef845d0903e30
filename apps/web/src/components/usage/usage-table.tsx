"use client";
// The range's totals per model or owner: requests, errors and their rate, tokens, latency p50/p95.
import type { UsageSeries } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { ABSENT, formatNumber, formatPercent } from "../../lib/format";
import { errorRatePercent, seriesGroups } from "../../lib/usage";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { groupColour } from "./usage-chart";

type Total = UsageSeries["totals"][number];

/** A numeric column of the totals, with the data-testid its tests read it by. */
function numeric(
  id: string,
  header: string,
  render: (total: Total) => string,
  testId?: string,
): GridColumn<Total> {
  return { id, header, isNumeric: true, render, cellProps: () => ({ "data-testid": testId }) };
}

function useUsageColumns(series: UsageSeries, order: string[]): GridColumn<Total>[] {
  const { t, i18n } = useTranslation("usage");
  const lang = i18n.language;
  const count = (value: number) => formatNumber(value, lang);
  const ms = (value: number | null) =>
    value === null ? ABSENT : t("ms", { value: formatNumber(value, lang) });
  return [
    {
      id: "group",
      header: t(`columns.${series.groupBy}`),
      render: (total) => (
        <>
          <span
            className="swatch"
            style={{ background: groupColour(order.indexOf(total.group)) }}
            aria-hidden="true"
          />
          <span className="mono">{total.group}</span>
        </>
      ),
    },
    numeric("requests", t("columns.requests"), (total) => count(total.requests), "usage-requests"),
    numeric("errors", t("columns.errors"), (total) => count(total.errors), "usage-errors"),
    numeric("errorRate", t("columns.errorRate"), (total) =>
      formatPercent(errorRatePercent(total.requests, total.errors), lang),
    ),
    numeric(
      "promptTokens",
      t("columns.promptTokens"),
      (total) => count(total.promptTokens),
      "usage-prompt-tokens",
    ),
    numeric(
      "completionTokens",
      t("columns.completionTokens"),
      (total) => count(total.completionTokens),
      "usage-completion-tokens",
    ),
    numeric("p50", t("columns.p50"), (total) => ms(total.latencyMsP50), "usage-p50"),
    numeric("p95", t("columns.p95"), (total) => ms(total.latencyMsP95), "usage-p95"),
  ];
}

export function UsageTable({ series }: { series: UsageSeries }) {
  const order = seriesGroups(series);
  const totals = [...series.totals].sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
  return (
    <DataGrid
      columns={useUsageColumns(series, order)}
      rows={totals}
      rowKey={(total) => total.group}
      rowProps={(total) => ({ "data-testid": "usage-row", "data-group": total.group })}
      testId="usage-table"
    />
  );
}
