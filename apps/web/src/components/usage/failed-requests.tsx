"use client";
// The range's failed /v1 requests one by one, newest first, for operators: when, model, status,
// key, request id, replica and node. "Show on node" opens the node's log view searching for the
// request's lines; a row whose node cannot be opened says why instead.
import type { FailedRequest, UsageRange } from "@llmgw/api/schemas";
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import { keyLabel } from "../../lib/events";
import { nodeLogsHref, rangeSinceIso } from "../../lib/failed-requests";
import { sortModels } from "../../lib/models";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { InlineSelect } from "../ui/inline-select";
import { momentColumn } from "../ui/moment-column";

const FAILED_PAGE_SIZE = 25;
const FAILED_REFETCH_INTERVAL_MS = 10_000;

function NodeCell({ request }: { request: FailedRequest }) {
  const { t } = useTranslation("usage");
  const href = nodeLogsHref(request);
  if (href === null)
    return (
      <span className="muted" data-testid="failed-no-node" data-reason={request.noNodeReason}>
        {t(`failed.noNode.${request.noNodeReason ?? "replica-unknown"}`, {
          node: request.nodeName ?? request.nodeId ?? "",
        })}
      </span>
    );
  return (
    <>
      <span className="mono">{request.nodeName ?? request.nodeId}</span>{" "}
      <Link href={href} data-testid="failed-show-on-node">
        {t("failed.showOnNode")}
      </Link>
    </>
  );
}

function useFailedColumns(): GridColumn<FailedRequest>[] {
  const { t, i18n } = useTranslation("usage");
  const lang = i18n.language;
  const nowMs = useNow();
  const mono = (text: string) => <span className="mono">{text}</span>;
  return [
    momentColumn({ id: "time", header: t("failed.columns.time"), at: (r) => r.at, nowMs, lang }),
    { id: "model", header: t("columns.model"), render: (r) => mono(r.model) },
    {
      id: "status",
      header: t("failed.columns.status"),
      isNumeric: true,
      cellProps: () => ({ "data-testid": "failed-status" }),
      // A stream cut after its 200 shows the code of the error event that ended it.
      render: (r) => (r.errorCode === null ? String(r.status) : `${r.status} ${r.errorCode}`),
    },
    {
      id: "key",
      header: t("failed.columns.key"),
      render: (r) =>
        r.keyPrefix === null
          ? t("failed.keyGone", { owner: r.owner })
          : mono(keyLabel(r.keyPrefix)),
    },
    {
      id: "request",
      header: t("failed.columns.request"),
      cellProps: () => ({ "data-testid": "failed-request-id" }),
      render: (r) => mono(r.requestId),
    },
    {
      id: "replica",
      header: t("failed.columns.replica"),
      render: (r) =>
        r.replicaId === null ? (
          <span className="muted">{t("failed.noReplica")}</span>
        ) : (
          <>
            {mono(r.replicaId)}
            {r.isReplicaGone ? <span className="muted"> {t("failed.replicaGone")}</span> : null}
          </>
        ),
    },
    { id: "node", header: t("failed.columns.node"), render: (r) => <NodeCell request={r} /> },
  ];
}

function ModelFilter({ value, onChange }: { value: string; onChange(model: string): void }) {
  const { t } = useTranslation("usage");
  const trpc = useTRPC();
  const models = useQuery(trpc.models.list.queryOptions(undefined, { staleTime: 10_000 }));
  const names = models.data ? sortModels(models.data).map((model) => model.name) : [];
  return (
    <InlineSelect
      label={t("failed.model")}
      value={value}
      onChange={onChange}
      testId="failed-model-filter"
    >
      <option value="">{t("failed.allModels")}</option>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </InlineSelect>
  );
}

export function FailedRequests({ range }: { range: UsageRange }) {
  const { t } = useTranslation("usage");
  const trpc = useTRPC();
  const [model, setModel] = useState("");
  // The window starts when the range is chosen; its end is always now, so new failures come in.
  const since = useMemo(() => rangeSinceIso(range, Date.now()), [range]);
  const input = { since, limit: FAILED_PAGE_SIZE, ...(model ? { model } : {}) };
  const failed = useInfiniteQuery(
    trpc.usage.failed.infiniteQueryOptions(input, {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      refetchInterval: FAILED_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const requests = useMemo(
    () => failed.data?.pages.flatMap((page) => page.requests),
    [failed.data],
  );
  const columns = useFailedColumns();
  return (
    <section data-testid="failed-requests">
      <div className="toolbar">
        <h2>{t("failed.title")}</h2>
        <ModelFilter value={model} onChange={setModel} />
      </div>
      <p className="muted">{t("failed.hint")}</p>
      {failed.isError && !requests ? (
        <ErrorPanel
          error={failed.error}
          title={t("failed.error")}
          hint={t("error.hint")}
          onRetry={() => void failed.refetch()}
        />
      ) : null}
      {requests && requests.length === 0 ? (
        <div className="panel muted" data-testid="failed-empty">
          {t("failed.empty")}
        </div>
      ) : null}
      {requests && requests.length > 0 ? (
        <div className="table-scroll">
          <DataGrid
            columns={columns}
            rows={requests}
            rowKey={(r) => String(r.id)}
            rowProps={(r) => ({
              "data-testid": "failed-row",
              "data-request-id": r.requestId,
              "data-model": r.model,
            })}
            testId="failed-table"
          />
        </div>
      ) : null}
      {failed.hasNextPage ? (
        <button
          type="button"
          className="control load-more"
          disabled={failed.isFetchingNextPage}
          onClick={() => void failed.fetchNextPage()}
          data-testid="failed-load-more"
        >
          {t("failed.loadMore")}
        </button>
      ) : null}
    </section>
  );
}
