"use client";
// Beside the heatmap: what the fleet can still take (capacity per GPU class, whole free nodes) and
// what could be given back (replicas whose cards have been idle).
import type { ClusterStatus, IdleReplicasView } from "@llmgw/api";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import { formatNumber, formatPercent } from "../../lib/format";
import { ControlPlanesSection } from "./control-planes-list";

function CapacityBars({ status }: { status: ClusterStatus }) {
  const { t, i18n } = useTranslation("cluster");
  const lang = i18n.language;
  if (status.capacity.length === 0) return <p className="muted">{t("capacity.none")}</p>;
  return (
    <ul className="capacity-list" data-testid="cluster-capacity">
      {status.capacity.map((row) => {
        const share = row.cardsTotal > 0 ? (row.cardsUsed / row.cardsTotal) * 100 : 0;
        return (
          <li key={row.gpuClass} data-testid="capacity-row" data-gpu-class={row.gpuClass}>
            <div className="capacity-head">
              <span className="truncate" title={row.gpuClass}>
                {row.gpuClass}
              </span>
              <span className="muted">{formatPercent(share, lang)}</span>
            </div>
            <div className="meter meter-wide" aria-hidden="true">
              <span style={{ width: `${share}%` }} />
            </div>
            <div className="muted small">
              {t("capacity.used", {
                used: formatNumber(row.cardsUsed, lang),
                total: formatNumber(row.cardsTotal, lang),
              })}
              {row.cardsUnhealthy > 0 ? (
                <span className="warning">
                  {" · "}
                  {t("capacity.unhealthy", { count: row.cardsUnhealthy })}
                </span>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function IdleList({ idle }: { idle: IdleReplicasView }) {
  const { t, i18n } = useTranslation("cluster");
  const lang = i18n.language;
  const window = new Intl.NumberFormat(lang, {
    style: "unit",
    unit: "minute",
    unitDisplay: "long",
  }).format(idle.windowMs / 60_000);
  return (
    <>
      <p className="muted small">
        {t("idle.hint", { threshold: formatPercent(idle.thresholdPercent, lang), window })}
      </p>
      {idle.replicas.length === 0 ? (
        <p className="muted" data-testid="idle-none">
          {t("idle.none")}
        </p>
      ) : (
        <ul className="plain-list" data-testid="idle-replicas">
          {idle.replicas.map(({ replica, peakUtilizationPercent }) => (
            <li key={replica.id} data-testid="idle-replica" data-replica-id={replica.id}>
              <Link href={`/replicas?model=${encodeURIComponent(replica.model)}`}>
                {replica.model}
              </Link>{" "}
              <span className="muted">
                {t("idle.where", { node: replica.nodeName, cards: replica.gpuIndexes.join(", ") })}
                {" · "}
                {t("idle.peak", { percent: formatPercent(peakUtilizationPercent, lang) })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ClusterSide({
  status,
  idle,
}: {
  status: ClusterStatus | undefined;
  idle: IdleReplicasView | undefined;
}) {
  const { t } = useTranslation("cluster");
  const { t: tc } = useTranslation();
  return (
    <div className="side-sections">
      <section>
        <h2>{t("capacity.title")}</h2>
        {status ? <CapacityBars status={status} /> : <p className="muted">{tc("loading")}</p>}
      </section>
      <section>
        <h2>{t("freeNodes.title")}</h2>
        {!status ? (
          <p className="muted">{tc("loading")}</p>
        ) : status.freeWholeNodes.length === 0 ? (
          <p className="muted">{t("freeNodes.none")}</p>
        ) : (
          <ul className="plain-list" data-testid="free-nodes">
            {status.freeWholeNodes.map((name) => (
              <li key={name}>
                <Link href={`/nodes/${encodeURIComponent(name)}`}>{name}</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h2>{t("idle.title")}</h2>
        {idle ? <IdleList idle={idle} /> : <p className="muted">{tc("loading")}</p>}
      </section>
      <ControlPlanesSection />
    </div>
  );
}
