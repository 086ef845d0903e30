"use client";
// The node page's time series: utilisation, memory and temperature of every card over the last
// minutes, from the server's in-memory sample history. Animations are off so a refresh only
// extends the lines instead of redrawing them.
import type { NodeView } from "@llmgw/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatCelsius, formatPercent, upperForDisplay } from "../../lib/format";
import {
  cardColour,
  cardKey,
  CHART_METRICS,
  chartRows,
  type ChartMetric,
  type ChartRow,
} from "../../lib/gpu-history";
import { useTRPC } from "../../trpc/react";
import { NODES_REFETCH_INTERVAL_MS } from "./nodes-page";

function MetricChart({
  metric,
  rows,
  node,
}: {
  metric: ChartMetric;
  rows: ChartRow[];
  node: NodeView;
}) {
  const { t, i18n } = useTranslation("nodes");
  const lang = i18n.language;
  const format = (value: number) =>
    metric === "temperature" ? formatCelsius(value, lang) : formatPercent(value, lang);
  const time = new Intl.DateTimeFormat(lang, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  return (
    <div className="chart" data-testid={`chart-${metric}`}>
      <h3>{t(`charts.${metric}`)}</h3>
      <ResponsiveContainer width="100%" height={180}>
        <LineChart data={rows} margin={{ top: 4, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis
            dataKey="atMs"
            type="number"
            domain={["dataMin", "dataMax"]}
            tickFormatter={(value: number) => time.format(value)}
            stroke="var(--text-muted)"
            fontSize={11}
          />
          <YAxis
            domain={metric === "temperature" ? [20, 100] : [0, 100]}
            ticks={metric === "temperature" ? [20, 40, 60, 80, 100] : [0, 25, 50, 75, 100]}
            tickFormatter={format}
            stroke="var(--text-muted)"
            fontSize={11}
            width={48}
          />
          <Tooltip
            labelFormatter={(value) => time.format(Number(value))}
            formatter={(value) => format(Number(value))}
            contentStyle={{ background: "var(--bg-raised)", border: "1px solid var(--border)" }}
            // The legend is drawn after the tooltip and would cover it near the chart's foot.
            wrapperStyle={{ zIndex: 2 }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {node.gpus.map((gpu) => (
            <Line
              key={gpu.index}
              dataKey={cardKey(gpu.index)}
              name={t("charts.card", { index: gpu.index })}
              stroke={cardColour(gpu.index)}
              dot={false}
              strokeWidth={1.5}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

export function GpuCharts({ node }: { node: NodeView }) {
  const { t, i18n } = useTranslation("nodes");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const history = useQuery(
    trpc.nodes.history.queryOptions(
      { id: node.id },
      { refetchInterval: NODES_REFETCH_INTERVAL_MS, placeholderData: keepPreviousData },
    ),
  );
  const totals = useMemo(
    () => new Map(node.gpus.map((gpu) => [gpu.index, gpu.memoryBytesTotal])),
    [node.gpus],
  );
  const data = history.data;
  return (
    <div className="panel" data-testid="node-charts">
      <div className="toolbar">
        <h2>{t("charts.title")}</h2>
        {node.simulated ? (
          <span className="badge badge-simulated">
            {upperForDisplay(t("charts.simulated"), i18n.language)}
          </span>
        ) : null}
      </div>
      {!data ? (
        <p className="muted">{tc("loading")}</p>
      ) : data.samples.length === 0 ? (
        <p className="muted" data-testid="node-charts-empty">
          {t("charts.empty")}
        </p>
      ) : (
        <div className="charts">
          {CHART_METRICS.map((metric) => (
            <MetricChart
              key={metric}
              metric={metric}
              rows={chartRows(data, metric, totals)}
              node={node}
            />
          ))}
        </div>
      )}
    </div>
  );
}
