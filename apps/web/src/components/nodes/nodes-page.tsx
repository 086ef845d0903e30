"use client";
// The fleet at a glance: live list, filter, sort, keyboard selection, and the empty and error
// states that tell the operator what to do next.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { isString, useDeskState, useHiddenColumns } from "../../hooks/use-desk-state";
import { useRowNavigation } from "../../hooks/use-row-navigation";
import { describeError } from "../../lib/errors";
import { isSortKey, matchesFilter, sortNodes, type SortKey, type SortState } from "../../lib/nodes";
import { isSortStateOf, toggleSort } from "../../lib/sort";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { NodesTable } from "./nodes-table";
import { FilterInput } from "../ui/filter-input";

export const NODES_REFETCH_INTERVAL_MS = 2000;
const AGENT_PORT_DEFAULT = 8081;
const DEFAULT_SORT: SortState = { key: "name", direction: "asc" };

const isNodesSort = isSortStateOf(isSortKey);

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
  const [filter, setFilter] = useDeskState("table.nodes.filter", isString, "");
  const [sort, setSort] = useDeskState<SortState>("table.nodes.sort", isNodesSort, DEFAULT_SORT);
  const columnChoice = useHiddenColumns("nodes");
  const nodesQuery = useQuery(
    trpc.nodes.summary.queryOptions(undefined, {
      refetchInterval: NODES_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );

  const allNodes = nodesQuery.data;
  const visibleNodes = useMemo(
    () =>
      sortNodes(
        (allNodes ?? []).filter((node) => matchesFilter(node, filter)),
        sort,
      ),
    [allNodes, filter, sort],
  );

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
          {allNodes
            ? filter
              ? t("shownOfTotal", { shown: visibleNodes.length, total: allNodes.length })
              : t("count", { count: allNodes.length })
            : null}
        </span>
        <div className="top-bar-spacer" />
        {nodesQuery.isError && allNodes ? (
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
      {nodesQuery.isError && !allNodes ? (
        <ErrorPanel
          error={nodesQuery.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void nodesQuery.refetch()}
        />
      ) : null}
      {nodesQuery.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {allNodes && allNodes.length === 0 ? <EmptyFleet /> : null}
      {allNodes && allNodes.length > 0 ? (
        <div className="table-scroll table-scroll-fill">
          <NodesTable
            nodes={visibleNodes}
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
