"use client";
// The range's totals per model or owner: requests, errors and their rate, tokens, latency p50/p95.
import type { UsageSeries } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { ABSENT, formatNumber, formatPercent } from "../../lib/format";
import { errorRatePercent, seriesGroups } from "../../lib/usage";
import { groupColour } from "./usage-chart";

const NUMERIC_COLUMNS = [
  "requests",
  "errors",
  "errorRate",
  "promptTokens",
  "completionTokens",
  "p50",
  "p95",
] as const;

export function UsageTable({ series }: { series: UsageSeries }) {
  const { t, i18n } = useTranslation("usage");
  const lang = i18n.language;
  const ms = (value: number | null) =>
    value === null ? ABSENT : t("ms", { value: formatNumber(value, lang) });
  const order = seriesGroups(series);
  const totals = [...series.totals].sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
  return (
    <table className="grid" data-testid="usage-table">
      <thead>
        <tr>
          <th>{t(`columns.${series.groupBy}`)}</th>
          {NUMERIC_COLUMNS.map((id) => (
            <th key={id} className="numeric">
              {t(`columns.${id}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {totals.map((total, index) => (
          <tr key={total.group} data-testid="usage-row" data-group={total.group}>
            <td>
              <span
                className="swatch"
                style={{ background: groupColour(index) }}
                aria-hidden="true"
              />
              <span className="mono">{total.group}</span>
            </td>
            <td className="numeric" data-testid="usage-requests">
              {formatNumber(total.requests, lang)}
            </td>
            <td className="numeric" data-testid="usage-errors">
              {formatNumber(total.errors, lang)}
            </td>
            <td className="numeric">
              {formatPercent(errorRatePercent(total.requests, total.errors), lang)}
            </td>
            <td className="numeric" data-testid="usage-prompt-tokens">
              {formatNumber(total.promptTokens, lang)}
            </td>
            <td className="numeric" data-testid="usage-completion-tokens">
              {formatNumber(total.completionTokens, lang)}
            </td>
            <td className="numeric" data-testid="usage-p50">
              {ms(total.latencyMsP50)}
            </td>
            <td className="numeric" data-testid="usage-p95">
              {ms(total.latencyMsP95)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
