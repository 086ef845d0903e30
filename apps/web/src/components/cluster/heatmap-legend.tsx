"use client";
// The colour scale of the current metric: the ramp, its ticks in the operator's locale, and the
// colour of a card with no reading.
import { useTranslation } from "react-i18next";
import { legendGradient, legendTicks, SCALES, type HeatmapMetric } from "../../lib/heatmap/colour";
import { formatCelsius, formatPercent } from "../../lib/format";

export function HeatmapLegend({ metric }: { metric: HeatmapMetric }) {
  const { t, i18n } = useTranslation("cluster");
  const lang = i18n.language;
  const format = (value: number) =>
    SCALES[metric].unit === "celsius" ? formatCelsius(value, lang) : formatPercent(value, lang);
  return (
    <div className="heatmap-legend" data-testid="heatmap-legend" data-metric={metric}>
      <span className="muted">{t("legend.title")}</span>
      <div className="legend-scale">
        <div className="legend-ramp" style={{ background: legendGradient() }} />
        <div className="legend-ticks">
          {legendTicks(metric).map((value) => (
            <span key={value}>{format(value)}</span>
          ))}
        </div>
      </div>
      <span className="legend-empty-swatch" aria-hidden="true" />
      <span className="muted">{t("legend.noReading")}</span>
    </div>
  );
}
