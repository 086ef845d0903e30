"use client";
// The landing page: every card of the fleet on one canvas, coloured by the chosen metric, beside
// the capacity that is left and the replicas that could be stopped. Everything polls; previous
// data stays on screen while a refresh is under way, so nothing jumps.
import type { FleetCardsView } from "@llmgw/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { fleetCells } from "../../lib/heatmap/cells";
import { isMetric, METRICS, type HeatmapMetric } from "../../lib/heatmap/colour";
import { cardKey, cardOwnership } from "../../lib/heatmap/ownership";
import { readStored, STORAGE_KEYS, writeStored } from "../../lib/preferences";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { OpenInWindowButton } from "../ui/open-in-window-button";
import { SplitPane } from "../split-pane";
import { CellTooltip } from "./cell-tooltip";
import { ClusterSide } from "./cluster-side";
import { HeatmapCanvas } from "./heatmap-canvas";
import { HeatmapLegend } from "./heatmap-legend";

const CLUSTER_REFETCH_INTERVAL_MS = 2000;
const SIDE_REFETCH_INTERVAL_MS = 5000;
const EMPTY_FLEET: FleetCardsView = {
  nodes: [],
  cardNames: [],
  cards: {
    ...{ index: [], nameOfCard: [], memoryMiBTotal: [], memoryMiBUsed: [] },
    ...{ utilizationPercent: [], temperatureCelsius: [] },
  },
};

function storedMetric(): HeatmapMetric {
  const stored = readStored(STORAGE_KEYS.clusterMetric);
  return isMetric(stored) ? stored : "utilization";
}

function MetricSwitch({
  metric,
  onChange,
}: {
  metric: HeatmapMetric;
  onChange(m: HeatmapMetric): void;
}) {
  const { t } = useTranslation("cluster");
  return (
    <div className="segmented" role="radiogroup" aria-label={t("metric.label")}>
      {METRICS.map((id) => (
        <button
          key={id}
          type="button"
          role="radio"
          aria-checked={metric === id}
          className={metric === id ? "segment segment-on" : "segment"}
          data-testid={`metric-${id}`}
          onClick={() => onChange(id)}
        >
          {t(`metric.${id}`)}
        </button>
      ))}
    </div>
  );
}

function useClusterData() {
  const trpc = useTRPC();
  const live = { placeholderData: keepPreviousData };
  return {
    nodes: useQuery(
      trpc.nodes.cards.queryOptions(undefined, {
        ...live,
        refetchInterval: CLUSTER_REFETCH_INTERVAL_MS,
      }),
    ),
    replicas: useQuery(
      trpc.replicas.cards.queryOptions(undefined, {
        ...live,
        refetchInterval: SIDE_REFETCH_INTERVAL_MS,
      }),
    ),
    models: useQuery(
      trpc.models.list.queryOptions(undefined, {
        ...live,
        refetchInterval: SIDE_REFETCH_INTERVAL_MS,
      }),
    ),
    status: useQuery(
      trpc.status.get.queryOptions(undefined, {
        ...live,
        refetchInterval: SIDE_REFETCH_INTERVAL_MS,
      }),
    ),
    idle: useQuery(
      trpc.replicas.idle.queryOptions(undefined, {
        ...live,
        refetchInterval: SIDE_REFETCH_INTERVAL_MS,
      }),
    ),
  };
}

export function ClusterPage() {
  const { t } = useTranslation("cluster");
  const { t: tc } = useTranslation();
  const router = useRouter();
  const [metric, setMetric] = useState<HeatmapMetric>(storedMetric);
  const data = useClusterData();
  const nodes = data.nodes.data;
  const cells = useMemo(() => fleetCells(nodes ?? EMPTY_FLEET), [nodes]);
  // Who holds each card is read only by a tooltip: the map (16,000 cards at P9's size) is built
  // on the first hover after its answers change, not while the page is opening.
  const ownershipOf = useMemo(() => {
    let byCard: ReturnType<typeof cardOwnership> | null = null;
    return (key: string) => {
      if (!byCard) {
        const models = data.models.data ?? [];
        byCard = cardOwnership(data.replicas.data, new Map(models.map((m) => [m.name, m.owner])));
      }
      return byCard.get(key);
    };
  }, [data.replicas.data, data.models.data]);
  const onMetric = useCallback((next: HeatmapMetric) => {
    setMetric(next);
    writeStored(STORAGE_KEYS.clusterMetric, next);
  }, []);
  const onOpenNode = useCallback(
    (id: string) => router.push(`/nodes/${encodeURIComponent(id)}`),
    [router],
  );
  const renderTooltip = useCallback(
    (cell: number) => {
      const nodeIndex = cells.nodeOfCell[cell];
      const node = nodeIndex === undefined ? undefined : cells.nodes[nodeIndex];
      const key = cardKey(node?.id ?? "", cells.cardOfCell[cell] ?? -1);
      return <CellTooltip cells={cells} cell={cell} ownership={ownershipOf(key)} />;
    },
    [cells, ownershipOf],
  );
  const cardCount = cells.nodeOfCell.length;
  const simulatedCount = cells.nodes.filter((node) => node.simulated).length;

  const heatmap =
    data.nodes.isError && !nodes ? (
      <ErrorPanel
        error={data.nodes.error}
        title={t("error.title")}
        hint={t("error.hint")}
        onRetry={() => void data.nodes.refetch()}
      />
    ) : data.nodes.isPending ? (
      <p className="muted">{tc("loading")}</p>
    ) : cardCount === 0 ? (
      <div className="panel" data-testid="cluster-empty">
        <h2>{t("empty.title")}</h2>
        <p>{t("empty.body")}</p>
      </div>
    ) : (
      <div className="heatmap-panel">
        <HeatmapLegend metric={metric} />
        <HeatmapCanvas
          cells={cells}
          metric={metric}
          label={t("heatmapLabel", { count: cardCount, nodes: cells.nodes.length })}
          renderTooltip={renderTooltip}
          onOpenNode={onOpenNode}
        />
      </div>
    );

  return (
    <section className="page page-fill" data-testid="cluster-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <MetricSwitch metric={metric} onChange={onMetric} />
        <span className="muted" data-testid="cluster-card-count">
          {nodes ? t("cardCount", { count: cardCount }) : null}
        </span>
        <div className="top-bar-spacer" />
        {data.nodes.isError && nodes ? (
          <span className="status status-stale" title={describeError(data.nodes.error, tc)}>
            {t("stale")}
          </span>
        ) : (
          <span className="status status-live">{t("live")}</span>
        )}
        <OpenInWindowButton />
      </div>
      {simulatedCount > 0 ? (
        <p className="notice notice-simulated" data-testid="cluster-simulated">
          {t("simulatedNotice", { count: simulatedCount })}
        </p>
      ) : null}
      <SplitPane
        id="cluster"
        main={heatmap}
        side={<ClusterSide status={data.status.data} idle={data.idle.data} />}
        sideLabel={t("sidePanel")}
      />
    </section>
  );
}
