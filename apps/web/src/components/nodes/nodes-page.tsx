"use client";
// The fleet at a glance: live list, filter, sort, keyboard selection, and the empty and error
// states that tell the operator what to do next.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { isString, useDeskState, useHiddenColumns } from "../../hooks/use-desk-state";
import { useRowNavigation } from "../../hooks/use-row-navigation";
import { describeError } from "../../lib/errors";
import { NODE_SORT_DEFAULT, type SortKey, type SortState } from "../../lib/nodes";
import { toggleSort } from "../../lib/sort";
import {
  isNodesSort,
  NODES_FILTER_DESK,
  NODES_SORT_DESK,
  nodesPageInput,
} from "../../lib/table-inputs";
import { useTableWindow } from "../../hooks/use-table-window";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { NodesTable } from "./nodes-table";
import { FilterInput } from "../ui/filter-input";

export const NODES_REFETCH_INTERVAL_MS = 2000;
const AGENT_PORT_DEFAULT = 8081;

function EmptyFleet() {
  const { t } = useTranslation("nodes");
  // The agent port is the server's second listener; the browser's host is the best guess at its name.
  const command = `LLMGW_JOIN_TOKEN=<token> llmgw agent --server ws://${window.location.hostname}:${AGENT_PORT_DEFAULT}`;
  return (
    <div className="panel" data-testid="nodes-empty">
      <h2>{t("empty.title")}</h2>
      <p>{t("empty.body")}</p>
      <pre className="command">{command}</pre>
      <p className="muted">{t("empty.tokenHint")}</p>
    </div>
  );
}

export function NodesPage() {
  const { t } = useTranslation("nodes");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const [filter, setFilter] = useDeskState(NODES_FILTER_DESK, isString, "");
  const [sort, setSort] = useDeskState<SortState>(NODES_SORT_DESK, isNodesSort, NODE_SORT_DEFAULT);
  const columnChoice = useHiddenColumns("nodes");
  // The server filters and sorts the fleet and answers the rows in view (P9: every node's
  // summary was 822 KiB at 2,000 nodes).
  const { range, onRange } = useTableWindow();
  const nodesQuery = useQuery(
    trpc.nodes.page.queryOptions(nodesPageInput(filter, sort, range), {
      refetchInterval: NODES_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );

  const page = nodesQuery.data;
  const visibleNodes = page?.rows ?? [];

  const onSort = useCallback(
    (key: SortKey) => setSort((current) => toggleSort(current, key)),
    [setSort],
  );
  const navigation = useRowNavigation(
    visibleNodes.map((node) => node.id),
    (id) => `/nodes/${encodeURIComponent(id)}`,
  );

  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <FilterInput
          testId="nodes-filter"
          label={t("filterLabel")}
          placeholder={t("filterPlaceholder")}
          value={filter}
          onChange={setFilter}
        />
        <span className="muted" data-testid="nodes-count">
          {page
            ? filter
              ? t("shownOfTotal", { shown: page.total, total: page.fleet })
              : t("count", { count: page.fleet })
            : null}
        </span>
        <div className="top-bar-spacer" />
        {nodesQuery.isError && page ? (
          <span
            className="status status-stale"
            data-testid="nodes-stale"
            title={describeError(nodesQuery.error, tc)}
          >
            {t("stale")}
          </span>
        ) : (
          <span className="status status-live">{t("live")}</span>
        )}
      </div>
      {nodesQuery.isError && !page ? (
        <ErrorPanel
          error={nodesQuery.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void nodesQuery.refetch()}
        />
      ) : null}
      {nodesQuery.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {page && page.fleet === 0 ? <EmptyFleet /> : null}
      {page && page.fleet > 0 ? (
        <div className="table-scroll table-scroll-fill">
          <NodesTable
            nodes={visibleNodes}
            window={{ total: page.total, offset: page.offset, onRange }}
            sort={sort}
            onSort={onSort}
            navigation={navigation}
            columnChoice={columnChoice}
            empty={<p className="muted empty-filter">{t("empty.noMatch", { query: filter })}</p>}
          />
        </div>
      ) : null}
    </section>
  );
}
