"use client";
// What the heatmap says about one card on hover: where it is, what runs on it and for whom, and
// its readings (marked simulated on a simulated node).
import { useTranslation } from "react-i18next";
import type { FleetCells } from "../../lib/heatmap/cells";
import type { CardOwnership } from "../../lib/heatmap/ownership";
import { formatBytesPair, formatCelsius, formatPercent, upperForDisplay } from "../../lib/format";

export function CellTooltip({
  cells,
  cell,
  ownership,
}: {
  cells: FleetCells;
  cell: number;
  ownership: CardOwnership | undefined;
}) {
  const { t, i18n } = useTranslation("cluster");
  const { t: tc } = useTranslation();
  const lang = i18n.language;
  const node = cells.nodes[cells.nodeOfCell[cell] ?? -1];
  if (!node) return null;
  const reading = (values: Float32Array | Float64Array) => {
    const value = values[cell] ?? NaN;
    return Number.isNaN(value) ? null : value;
  };
  const name = cells.cardNames[cells.nameOfCell[cell] ?? -1] ?? "";
  const rows: [string, string][] = [
    [t("tooltip.node"), node.name],
    [t("tooltip.card"), `${cells.cardOfCell[cell] ?? ""} · ${name}`],
    [t("tooltip.model"), ownership?.model ?? t("tooltip.free")],
    [t("tooltip.replica"), ownership?.replicaId ?? t("tooltip.noOwner")],
    [t("tooltip.owner"), ownership?.owner ?? t("tooltip.noOwner")],
    [t("tooltip.utilization"), formatPercent(reading(cells.utilization), lang)],
    [
      t("tooltip.memory"),
      formatBytesPair(reading(cells.memoryBytesUsed), cells.memoryBytesTotal[cell] ?? 0, lang),
    ],
    [t("tooltip.temperature"), formatCelsius(reading(cells.temperature), lang)],
  ];
  return (
    <>
      <dl className="tooltip-facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="tooltip-foot">
        {node.simulated ? (
          <span className="badge badge-simulated">{upperForDisplay(tc("simulated"), lang)}</span>
        ) : null}
        <span className="muted">{t("tooltip.open")}</span>
      </div>
    </>
  );
}
