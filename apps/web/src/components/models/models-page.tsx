"use client";
// The catalog: what the cluster is asked to serve and how far each model got, live. Writes (add,
// retry, remove) refresh the list at once instead of waiting for the next tick.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite, useIsAdmin } from "../../hooks/use-can-write";
import { isString, useDeskState, useHiddenColumns } from "../../hooks/use-desk-state";
import { useRowNavigation } from "../../hooks/use-row-navigation";
import { describeError } from "../../lib/errors";
import { isSortStateOf, toggleSort, type SortState } from "../../lib/sort";
import {
  isModelSortKey,
  matchesModelFilter,
  MODEL_SORT_DEFAULT,
  sortModelsBy,
  type ModelSortKey,
} from "../../lib/table-order";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorPanel } from "../error-panel";
import { AdaptersDialog } from "./adapters-dialog";
import { AddModelDialog } from "./add-model-dialog";
import { FallbacksDialog } from "./fallbacks-dialog";
import { ModelsTable, type ModelActions } from "./models-table";
import { OwnerDialog } from "./owner-dialog";
import { SizingDialog } from "./sizing-dialog";
import type { SizingAction } from "./sizing-form";
import { FilterInput } from "../ui/filter-input";

const MODELS_REFETCH_INTERVAL_MS = 2000;
const isModelsSort = isSortStateOf(isModelSortKey);

/** A model opens as its replicas, as the palette opens it. */
function modelPath(name: string): string {
  return `/replicas?model=${encodeURIComponent(name)}`;
}

function useModelWrites() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
  const retry = useMutation(trpc.models.retry.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.models.remove.mutationOptions({ onSettled: refresh }));
  return { retry, remove };
}

function ActionError({
  name,
  error,
  onDismiss,
}: {
  name: string;
  error: unknown;
  onDismiss(): void;
}) {
  const { t } = useTranslation("models");
  const { t: tc } = useTranslation();
  return (
    <div className="panel panel-error action-error" role="alert" data-testid="model-action-error">
      <span>{t("actionFailed", { name, message: describeError(error, tc) })}</span>
      <button type="button" className="control control-small" onClick={onDismiss}>
        {t("dismiss")}
      </button>
    </div>
  );
}

export function ModelsPage() {
  const { t } = useTranslation("models");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const canWrite = useCanWrite();
  const canSize = useIsAdmin();
  const [isAddOpen, setAddOpen] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [editingFallbacks, setEditingFallbacks] = useState<string | null>(null);
  const [editingOwner, setEditingOwner] = useState<string | null>(null);
  const [editingAdapters, setEditingAdapters] = useState<string | null>(null);
  const [sizing, setSizing] = useState<{ name: string; action: SizingAction } | null>(null);
  const { retry, remove } = useModelWrites();
  const modelsQuery = useQuery(
    trpc.models.list.queryOptions(undefined, {
      refetchInterval: MODELS_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const [filter, setFilter] = useDeskState("table.models.filter", isString, "");
  const [sort, setSort] = useDeskState<SortState<ModelSortKey>>(
    "table.models.sort",
    isModelsSort,
    MODEL_SORT_DEFAULT,
  );
  const onSort = useCallback(
    (key: ModelSortKey) => setSort((current) => toggleSort(current, key)),
    [setSort],
  );
  const models = useMemo(
    () => (modelsQuery.data ? sortModelsBy(modelsQuery.data, sort) : undefined),
    [modelsQuery.data, sort],
  );
  const shownModels = useMemo(
    () => (models ?? []).filter((model) => matchesModelFilter(model, filter)),
    [models, filter],
  );
  const catalogNames = useMemo(() => new Set((models ?? []).map((model) => model.name)), [models]);
  const isDialogOpen =
    isAddOpen || [removing, editingFallbacks, editingOwner, editingAdapters, sizing].some(Boolean);
  const navigation = useRowNavigation(
    shownModels.map((model) => model.name),
    modelPath,
    isDialogOpen,
  );
  const columnChoice = useHiddenColumns("models");

  const failed = retry.isError ? retry : remove.isError ? remove : null;
  const actions: ModelActions = {
    canWrite,
    canSize,
    busyName: retry.isPending
      ? (retry.variables?.name ?? null)
      : remove.isPending
        ? (remove.variables?.name ?? null)
        : null,
    onRetry: (name) => retry.mutate({ name }),
    onRemove: setRemoving,
    onFallbacks: setEditingFallbacks,
    onOwner: setEditingOwner,
    onAdapters: setEditingAdapters,
    onSizing: (name, action) => setSizing({ name, action }),
  };
  const sizingModel = models?.find((model) => model.name === sizing?.name);
  const fallbacksModel = models?.find((model) => model.name === editingFallbacks);
  const ownerModel = models?.find((model) => model.name === editingOwner);
  const adaptersModel = models?.find((model) => model.name === editingAdapters);

  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <FilterInput
          testId="models-filter"
          label={t("filterLabel")}
          placeholder={t("filterPlaceholder")}
          value={filter}
          onChange={setFilter}
        />
        <span className="muted" data-testid="models-count">
          {models
            ? filter
              ? t("shownOfTotal", { shown: shownModels.length, total: models.length })
              : t("count", { count: models.length })
            : null}
        </span>
        <button
          type="button"
          className="primary"
          onClick={() => setAddOpen(true)}
          data-testid="add-model"
        >
          {t("add.open")}
        </button>
        {canWrite ? null : <span className="muted">{t("readOnly")}</span>}
        <div className="top-bar-spacer" />
        {modelsQuery.isError && models ? (
          <span
            className="status status-stale"
            data-testid="models-stale"
            title={describeError(modelsQuery.error, tc)}
          >
            {t("stale")}
          </span>
        ) : (
          <span className="status status-live">{t("live")}</span>
        )}
      </div>
      {failed?.variables ? (
        <ActionError
          name={failed.variables.name}
          error={failed.error}
          onDismiss={() => failed.reset()}
        />
      ) : null}
      {modelsQuery.isError && !models ? (
        <ErrorPanel
          error={modelsQuery.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void modelsQuery.refetch()}
        />
      ) : null}
      {modelsQuery.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {models && models.length === 0 ? (
        <div className="panel" data-testid="models-empty">
          <h2>{t("empty.title")}</h2>
          <p>{t("empty.body")}</p>
        </div>
      ) : null}
      {models && models.length > 0 ? (
        <div className="table-scroll">
          <ModelsTable
            models={shownModels}
            sorting={{ sort, onSort }}
            empty={<p className="muted empty-filter">{t("empty.noMatch", { query: filter })}</p>}
            actions={actions}
            navigation={navigation}
            columnChoice={columnChoice}
          />
        </div>
      ) : null}
      {isAddOpen ? (
        <AddModelDialog
          catalogNames={catalogNames}
          canWrite={canWrite}
          onClose={() => setAddOpen(false)}
        />
      ) : null}
      {fallbacksModel ? (
        <FallbacksDialog
          model={fallbacksModel}
          catalogNames={[...catalogNames]}
          onClose={() => setEditingFallbacks(null)}
        />
      ) : null}
      {adaptersModel ? (
        <AdaptersDialog
          model={adaptersModel}
          canWrite={canWrite}
          onClose={() => setEditingAdapters(null)}
        />
      ) : null}
      {ownerModel ? <OwnerDialog model={ownerModel} onClose={() => setEditingOwner(null)} /> : null}
      {sizing && sizingModel ? (
        <SizingDialog action={sizing.action} model={sizingModel} onClose={() => setSizing(null)} />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={t("confirmRemove.title", { name: removing })}
          body={t("confirmRemove.body", { name: removing })}
          confirmLabel={t("confirmRemove.confirm")}
          cancelLabel={t("confirmRemove.cancel")}
          isBusy={remove.isPending}
          testId="remove-confirm"
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            remove.mutate({ name: removing });
            setRemoving(null);
          }}
        />
      ) : null}
    </section>
  );
}
