"use client";
// One node: its facts on the left of the eye, its cards below. Refreshes like the list does.
import type { NodeView } from "@llmgw/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import { trpcErrorCode } from "../../lib/errors";
import {
  ABSENT,
  formatByteRate,
  formatBytesPair,
  formatDateTime,
  formatPercent,
  formatRelativeTime,
  formatSeconds,
} from "../../lib/format";
import { labelPairs, osLabel } from "../../lib/nodes";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { EngineBuild } from "./engine-build";
import { EngineInstalls } from "./engine-installs";
import { GpuCharts } from "./gpu-charts";
import { GpuTable } from "./gpu-table";
import { LabelChips, SimulatedBadge, StateBadge } from "./node-badges";
import { NodeActions } from "./node-actions";
import { NODES_REFETCH_INTERVAL_MS } from "./nodes-page";

function Fact({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}

function NodeFacts({ node }: { node: NodeView }) {
  const { t, i18n } = useTranslation("nodes");
  const { t: tc } = useTranslation();
  const lang = i18n.language;
  const nowMs = useNow();
  const simulation = node.simulated
    ? node.simulationProfile
      ? t("detail.simulatedProfile", { profile: node.simulationProfile })
      : t("detail.simulatedNoProfile")
    : t("detail.realHardware");
  const listOrNone = (items: string[]): string => (items.length ? items.join(", ") : tc("none"));
  return (
    <dl className="facts" data-testid="node-facts">
      <Fact label={t("detail.state")}>
        <StateBadge state={node.state} />
      </Fact>
      <Fact label={t("detail.simulation")} testId="node-simulation">
        {simulation}
      </Fact>
      <Fact label={t("detail.id")}>
        <span className="mono">{node.id}</span>
      </Fact>
      <Fact label={t("detail.os")}>{osLabel(node.os)}</Fact>
      <Fact label={t("detail.arch")}>{node.arch}</Fact>
      <Fact
        label={t("detail.cpu")}
      >{`${node.cpu.model} · ${t("detail.cpuCores", { count: node.cpu.cores })}`}</Fact>
      <Fact label={t("detail.cpuUtilization")}>
        {formatPercent(node.cpu.utilizationPercent, lang)}
      </Fact>
      <Fact label={t("detail.memory")}>
        {formatBytesPair(node.memory.bytesUsed, node.memory.bytesTotal, lang)}
      </Fact>
      <Fact label={t("detail.disk")}>
        {formatBytesPair(node.disk.bytesFree, node.disk.bytesTotal, lang)}
      </Fact>
      <Fact label={t("detail.network")} testId="node-network">
        {`${formatByteRate(node.network.receiveBytesPerSecond, lang)} / ${formatByteRate(node.network.transmitBytesPerSecond, lang)}`}
      </Fact>
      <Fact label={t("detail.driver")}>{node.driverVersion ?? ABSENT}</Fact>
      <Fact label={t("detail.agentVersion")}>
        <span className="mono">{node.agentVersion}</span>
      </Fact>
      <Fact label={t("detail.labels")}>
        <LabelChips pairs={labelPairs(node.labels)} />
      </Fact>
      <Fact label={t("detail.engines")}>{listOrNone(node.engines)}</Fact>
      <Fact label={t("detail.features")}>{listOrNone(node.features)}</Fact>
      <Fact label={t("detail.firstSeen")}>{formatDateTime(node.firstSeenAt, lang)}</Fact>
      <Fact label={t("detail.heartbeatAge")} testId="node-heartbeat-age">
        {formatSeconds(node.heartbeatAgeSeconds, lang)}
      </Fact>
      <Fact label={t("detail.lastSeen")}>
        <span title={formatDateTime(node.lastSeenAt, lang)}>
          {formatRelativeTime(node.lastSeenAt, nowMs, lang)}
        </span>
      </Fact>
    </dl>
  );
}

export function NodeDetail({ id }: { id: string }) {
  const { t } = useTranslation("nodes");
  const { t: tl } = useTranslation("logs");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const nodeQuery = useQuery(
    trpc.nodes.get.queryOptions(
      { id },
      { refetchInterval: NODES_REFETCH_INTERVAL_MS, placeholderData: keepPreviousData },
    ),
  );
  const node = nodeQuery.data;

  if (nodeQuery.isError && !node) {
    const isMissing = trpcErrorCode(nodeQuery.error) === "NOT_FOUND";
    return (
      <section className="page">
        {isMissing ? (
          <div className="panel" role="alert" data-testid="node-not-found">
            <p>{t("detail.notFound", { id })}</p>
          </div>
        ) : (
          <ErrorPanel error={nodeQuery.error} onRetry={() => void nodeQuery.refetch()} />
        )}
        <Link href="/nodes">{t("detail.back")}</Link>
      </section>
    );
  }
  if (!node) return <p className="muted page">{tc("loading")}</p>;

  return (
    <section className="page" data-testid="node-detail">
      <div className="toolbar">
        <h1>{node.name}</h1>
        {node.simulated ? <SimulatedBadge /> : null}
        {node.cordon ? (
          <span className="badge" data-testid="node-detail-cordon">
            {t(`cordon.${node.cordon}`)}
          </span>
        ) : null}
        <div className="top-bar-spacer" />
        <NodeActions node={node} />
        <Link
          href={`/nodes/${encodeURIComponent(node.id)}/logs`}
          className="control link-control"
          data-testid="node-logs-link"
        >
          {tl("openLogs")}
        </Link>
      </div>
      <div className="panel">
        <h2>{t("detail.facts")}</h2>
        <NodeFacts node={node} />
      </div>
      <EngineInstalls node={node} />
      <EngineBuild node={node} />
      <div className="panel">
        <h2>{t("detail.gpus")}</h2>
        {node.gpus.length ? (
          <div className="table-scroll">
            <GpuTable gpus={node.gpus} />
          </div>
        ) : (
          <p className="muted" data-testid="node-no-gpus">
            {t("detail.noGpus")}
          </p>
        )}
      </div>
      {node.gpus.length ? <GpuCharts node={node} /> : null}
    </section>
  );
}
