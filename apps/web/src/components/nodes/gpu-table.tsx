"use client";
// One row per card. Measurements the driver did not report stay an em dash. The PCIe cell shows
// the link as seated against the card's best, with the GB/s each carries; a link below the card's
// best (fewer lanes, an older slot) is flagged, since it silently caps host-to-device bandwidth.
// The generation a link idles at is not shown: it drops to save power and means nothing here.
import type { GpuView } from "@llmgw/api";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import {
  ABSENT,
  formatBytesPair,
  formatCelsius,
  formatNumber,
  formatPercent,
  formatWatts,
} from "../../lib/format";
import { isPcieDegraded } from "../../lib/nodes";
import { DataGrid, type GridColumn } from "../ui/data-grid";

function pcieLink(gen: number | null, width: number | null, t: TFunction<"nodes">): string {
  if (gen == null && width == null) return ABSENT;
  return t("gpu.pcieLink", { gen: gen ?? ABSENT, width: width ?? ABSENT });
}

function pcieText(gpu: GpuView, t: TFunction<"nodes">, lang: string): string {
  const seated = pcieLink(gpu.pcieGenMax, gpu.pcieWidthCurrent ?? gpu.pcieWidthMax, t);
  const best = pcieLink(gpu.pcieGenCardMax ?? gpu.pcieGenMax, gpu.pcieWidthMax, t);
  if (gpu.pcieLink === null) return `${seated} / ${best}`;
  const bandwidth = t("gpu.pcieBandwidth", {
    carried: formatNumber(gpu.pcieLink.carriedGBps, lang, 1),
    possible: formatNumber(gpu.pcieLink.possibleGBps, lang, 1),
  });
  return `${seated} / ${best} · ${bandwidth}`;
}

function PcieCell({ gpu }: { gpu: GpuView }) {
  const { t, i18n } = useTranslation("nodes");
  const text = pcieText(gpu, t, i18n.language);
  if (!isPcieDegraded(gpu)) return <span>{text}</span>;
  return (
    <span className="warning" title={t("gpu.pcieDegraded")} data-testid="pcie-degraded">
      <span aria-hidden="true">{"⚠ "}</span>
      {text}
    </span>
  );
}

function UtilizationCell({ percent, lang }: { percent: number | null; lang: string }) {
  return (
    <span className="meter-cell">
      {percent == null ? null : (
        <span className="meter" aria-hidden="true">
          <span style={{ width: `${Math.min(100, Math.max(0, percent))}%` }} />
        </span>
      )}
      <span className="meter-value">{formatPercent(percent, lang)}</span>
    </span>
  );
}

function useGpuColumns(): GridColumn<GpuView>[] {
  const { t, i18n } = useTranslation("nodes");
  const lang = i18n.language;
  return [
    { id: "index", header: t("gpu.index"), isNumeric: true, render: (gpu) => gpu.index },
    {
      id: "name",
      header: t("gpu.name"),
      render: (gpu) => (
        <>
          {gpu.name}
          {gpu.migEnabled ? <span className="badge badge-simulated">{t("gpu.mig")}</span> : null}
        </>
      ),
    },
    {
      id: "uuid",
      header: t("gpu.uuid"),
      className: "mono muted",
      render: (gpu) => (
        <span className="truncate uuid" title={gpu.uuid}>
          {gpu.uuid}
        </span>
      ),
    },
    {
      id: "memory",
      header: t("gpu.memory"),
      isNumeric: true,
      render: (gpu) => formatBytesPair(gpu.memoryBytesUsed, gpu.memoryBytesTotal, lang),
    },
    {
      id: "utilization",
      header: t("gpu.utilization"),
      isNumeric: true,
      render: (gpu) => <UtilizationCell percent={gpu.utilizationPercent} lang={lang} />,
    },
    {
      id: "temperature",
      header: t("gpu.temperature"),
      isNumeric: true,
      render: (gpu) => formatCelsius(gpu.temperatureCelsius, lang),
    },
    {
      id: "power",
      header: t("gpu.power"),
      isNumeric: true,
      render: (gpu) => formatWatts(gpu.powerWatts, lang),
    },
    {
      id: "computeCapability",
      header: t("gpu.computeCapability"),
      render: (gpu) => gpu.computeCapability ?? ABSENT,
    },
    { id: "pcie", header: t("gpu.pcie"), render: (gpu) => <PcieCell gpu={gpu} /> },
  ];
}

export function GpuTable({ gpus }: { gpus: GpuView[] }) {
  return (
    <DataGrid
      columns={useGpuColumns()}
      rows={gpus}
      rowKey={(gpu) => gpu.uuid}
      rowProps={() => ({ "data-testid": "gpu-row" })}
      testId="node-gpus-table"
    />
  );
}
