"use client";
// One small time-series chart of the usage page: a line (or stacked area) per group, with time and
// numbers formatted in the operator's language.
import type { UsageRange } from "@llmgw/api";
import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useTranslation } from "react-i18next";
import type { ChartRow } from "../../lib/usage";

// Colour-blind-friendly categorical palette (Okabe–Ito), readable on both themes.
const GROUP_COLOURS = [
  "#0072b2",
  "#e69f00",
  "#009e73",
  "#cc79a7",
  "#56b4e9",
  "#d55e00",
  "#f0e442",
  "#999999",
];

export function groupColour(index: number): string {
  return GROUP_COLOURS[index % GROUP_COLOURS.length] ?? "#999999";
}

function timeFormat(range: UsageRange, lang: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(
    lang,
    range === "7d"
      ? { weekday: "short", hour: "2-digit", minute: "2-digit" }
      : { hour: "2-digit", minute: "2-digit" },
  );
}

interface UsageChartProps {
  title: string;
  testId: string;
  rows: ChartRow[];
  groups: string[];
  range: UsageRange;
  kind: "area" | "line";
  formatValue(value: number): string;
  /** Axis ticks are short (no unit); the title names the unit. Defaults to formatValue. */
  formatTick?(value: number): string;
}

export function UsageChart({
  title,
  testId,
  rows,
  groups,
  range,
  kind,
  formatValue,
  formatTick = formatValue,
}: UsageChartProps) {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const time = timeFormat(range, lang);
  const full = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const axes = (
    <>
      <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
      <XAxis
        dataKey="bucketMs"
        type="number"
        scale="time"
        domain={["dataMin", "dataMax"]}
        tickFormatter={(ms: number) => time.format(ms)}
        stroke="var(--text-muted)"
        fontSize={11}
      />
      <YAxis
        width={56}
        tickFormatter={(value: number) => formatTick(value)}
        stroke="var(--text-muted)"
        fontSize={11}
        allowDecimals={false}
      />
      <Tooltip
        labelFormatter={(ms) => full.format(Number(ms))}
        formatter={(value) => (typeof value === "number" ? formatValue(value) : "")}
        contentStyle={{
          background: "var(--bg-raised)",
          border: "1px solid var(--border)",
          fontSize: 12,
        }}
      />
      <Legend wrapperStyle={{ fontSize: 11 }} />
    </>
  );
  return (
    <div className="panel chart-panel" data-testid={testId}>
      <h2>{title}</h2>
      <ResponsiveContainer width="100%" height={190}>
        {kind === "area" ? (
          <AreaChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            {axes}
            {groups.map((group, index) => (
              <Area
                key={group}
                type="monotone"
                dataKey={group}
                stackId="all"
                stroke={groupColour(index)}
                fill={groupColour(index)}
                fillOpacity={0.25}
                isAnimationActive={false}
              />
            ))}
          </AreaChart>
        ) : (
          <LineChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            {axes}
            {groups.map((group, index) => (
              <Line
                key={group}
                type="monotone"
                dataKey={group}
                stroke={groupColour(index)}
                // A bucket with requests between idle ones has no neighbour to draw a line to.
                dot={{ r: 2.5 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        )}
      </ResponsiveContainer>
    </div>
  );
}
