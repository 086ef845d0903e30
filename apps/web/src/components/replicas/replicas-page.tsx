"use client";
// Every replica the control plane tracks: where it runs, on which cards, how far it got. The model
// filter lives in the URL (?model=) so the Models page can link straight to one model's replicas.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useDeskState, useHiddenColumns } from "../../hooks/use-desk-state";
import { useRowNavigation } from "../../hooks/use-row-navigation";
import { describeError } from "../../lib/errors";
import { sortModels } from "../../lib/models";
import { toggleSort, type SortState } from "../../lib/sort";
import { isReplicasSort, replicasPageInput, REPLICAS_SORT_DESK } from "../../lib/table-inputs";
import { REPLICA_SORT_DEFAULT, type ReplicaSortKey } from "../../lib/table-order";
import { useTableWindow } from "../../hooks/use-table-window";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { InlineSelect } from "../ui/inline-select";
import { replicaLogsPath, ReplicasTable } from "./replicas-table";

const REPLICAS_REFETCH_INTERVAL_MS = 2000;

function useModelNames(): string[] | undefined {
  const trpc = useTRPC();
  const models = useQuery(trpc.models.list.queryOptions(undefined, { staleTime: 10_000 }));
  return models.data ? sortModels(models.data).map((model) => model.name) : undefined;
}

function ModelFilter({ value, onChange }: { value: string; onChange(model: string): void }) {
  const { t } = useTranslation("replicas");
  const names = [...(useModelNames() ?? [])];
  // A model in the URL that the catalog no longer has stays selectable, so the filter never lies.
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <InlineSelect
      label={t("filterLabel")}
      value={value}
      onChange={onChange}
      testId="replicas-model-filter"
    >
      <option value="">{t("allModels")}</option>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </InlineSelect>
  );
}

export function ReplicasPage() {
  const { t } = useTranslation("replicas");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const model = searchParams.get("model") ?? "";
  const modelNames = useModelNames();
  // Known only once the catalog has loaded: a name it lacks is said to be unknown, not "no replica".
  const isUnknownModel = model !== "" && modelNames !== undefined && !modelNames.includes(model);
  const [sort, setSort] = useDeskState<SortState<ReplicaSortKey>>(
    REPLICAS_SORT_DESK,
    isReplicasSort,
    REPLICA_SORT_DEFAULT,
  );
  // The server sorts the book and answers the rows in view (P9: the whole book was 1.25 MB).
  const { range, onRange } = useTableWindow();
  const replicasQuery = useQuery(
    trpc.replicas.page.queryOptions(replicasPageInput(searchParams, sort, range), {
      refetchInterval: REPLICAS_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const onSort = useCallback(
    (key: ReplicaSortKey) => setSort((current) => toggleSort(current, key)),
    [setSort],
  );
  const page = replicasQuery.data;
  const replicas = page?.rows;
  const total = page?.total;
  const navigation = useRowNavigation(
    (replicas ?? []).map((replica) => replica.id),
    (id) => {
      const replica = replicas?.find((candidate) => candidate.id === id);
      return replica ? replicaLogsPath(replica) : "/replicas";
    },
  );
  const columnChoice = useHiddenColumns("replicas");
  const setModel = (next: string) =>
    router.replace(next ? `${pathname}?model=${encodeURIComponent(next)}` : pathname);

  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <ModelFilter value={model} onChange={setModel} />
        <span className="muted" data-testid="replicas-count">
          {total === undefined ? null : t("count", { count: total })}
        </span>
        <div className="top-bar-spacer" />
        {replicasQuery.isError && replicas ? (
          <span
            className="status status-stale"
            data-testid="replicas-stale"
            title={describeError(replicasQuery.error, tc)}
          >
            {t("stale")}
          </span>
        ) : (
          <span className="status status-live">{t("live")}</span>
        )}
      </div>
      {replicasQuery.isError && !replicas ? (
        <ErrorPanel
          error={replicasQuery.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void replicasQuery.refetch()}
        />
      ) : null}
      {replicasQuery.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {isUnknownModel ? (
        <div className="panel muted" data-testid="replicas-unknown-model">
          {t("unknownModel", { model })}{" "}
          <button type="button" className="control" onClick={() => setModel("")}>
            {t("allModels")}
          </button>
        </div>
      ) : null}
      {total === 0 && !isUnknownModel ? (
        <div className="panel muted" data-testid="replicas-empty">
          {model ? t("empty.model", { model }) : t("empty.all")}
        </div>
      ) : null}
      {page && page.total > 0 ? (
        <div className="table-scroll table-scroll-fill">
          <ReplicasTable
            replicas={page.rows}
            window={{ total: page.total, offset: page.offset, onRange }}
            sorting={{ sort, onSort }}
            navigation={navigation}
            columnChoice={columnChoice}
          />
        </div>
      ) : null}
    </section>
  );
}
