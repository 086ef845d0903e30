"use client";
// The catalog as a dense table. Row height stays fixed while states change (a parked model's error
// is one truncated line with the full text in its title); only the reasons an operator asks for
// open an extra row beneath their model.
import type { ModelView } from "@llmgw/api";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import type { RowNavigation } from "../../hooks/use-row-navigation";
import { ABSENT, formatDateTime, formatNumber, formatRelativeTime } from "../../lib/format";
import { adaptersOf } from "../../lib/adapters";
import { canRetry, definitionEngines } from "../../lib/models";
import type { SortState } from "../../lib/sort";
import type { ModelSortKey } from "../../lib/table-order";
import type { ColumnChoice } from "../ui/column-chooser";
import { DataGrid, DetailRow, type GridColumn } from "../ui/data-grid";
import { openInWindowItem, RowMenu } from "../ui/row-menu";
import { ModelStateBadge } from "./model-state-badge";
import { SIZING_ACTIONS, type SizingAction } from "./sizing-form";

export interface ModelActions {
  canWrite: boolean;
  /** Sizing (GPUs…, Context…, Resources…) is for admins only: others never see its buttons. */
  canSize: boolean;
  /** The model whose write is in flight, so only its buttons wait. */
  busyName: string | null;
  onRetry(name: string): void;
  onRemove(name: string): void;
  onFallbacks(name: string): void;
  onOwner(name: string): void;
  onAdapters(name: string): void;
  onSizing(name: string, action: SizingAction): void;
}

function StateCell({
  model,
  isExpanded,
  onToggle,
}: {
  model: ModelView;
  isExpanded: boolean;
  onToggle(): void;
}) {
  const { t } = useTranslation("models");
  if (model.state === "parked" || model.isParked) {
    const error = model.lastError ? t("lastError", { error: model.lastError }) : t("noError");
    const title = [
      t("parkedHint"),
      t("failures", { count: model.consecutiveFailures }),
      error,
    ].join("\n");
    return (
      <span className="state-cell">
        <ModelStateBadge state={model.state} />
        <span className="truncate state-note bad-text" title={title} data-testid="model-error">
          {model.lastError ?? t("noError")}
        </span>
      </span>
    );
  }
  if (model.state === "unplaceable") {
    return (
      <span className="state-cell">
        <ModelStateBadge state={model.state} />
        <button
          type="button"
          className="link-button"
          aria-expanded={isExpanded}
          onClick={onToggle}
          data-testid="model-reasons-toggle"
        >
          {isExpanded ? t("hideReasons") : t("showReasons")}
        </button>
      </span>
    );
  }
  return <ModelStateBadge state={model.state} />;
}

function ActionsCell({
  model,
  actions,
  onOpenInWindow,
}: {
  model: ModelView;
  actions: ModelActions;
  onOpenInWindow(name: string): void;
}) {
  const { t } = useTranslation("models");
  const { t: tc } = useTranslation();
  const isBusy = actions.busyName === model.name;
  const disabledTitle = actions.canWrite ? undefined : t("readOnly");
  return (
    // A double click on a button is two clicks on it, not a wish to leave the page.
    <span className="row-actions" onDoubleClick={(event) => event.stopPropagation()}>
      <RowMenu
        label={t("rowMenu", { name: model.name })}
        items={[openInWindowItem(tc("openInNewWindow"), () => onOpenInWindow(model.name))]}
      />
      {canRetry(model) ? (
        <button
          type="button"
          className="control control-small"
          disabled={!actions.canWrite || isBusy}
          title={disabledTitle ?? t("retryTitle")}
          onClick={() => actions.onRetry(model.name)}
          data-testid="model-retry"
        >
          {t("retry")}
        </button>
      ) : null}
      <button
        type="button"
        className="control control-small"
        disabled={!actions.canWrite || isBusy}
        title={disabledTitle ?? model.fallbacks.join(", ")}
        onClick={() => actions.onFallbacks(model.name)}
        data-testid="model-fallbacks"
        data-fallbacks={model.fallbacks.join(",")}
      >
        {t("fallbacks.button", { count: model.fallbacks.length })}
      </button>
      <button
        type="button"
        className="control control-small"
        disabled={!actions.canWrite || isBusy}
        title={
          disabledTitle ??
          (model.owner ? t("owner.buttonTitle", { owner: model.owner }) : undefined)
        }
        onClick={() => actions.onOwner(model.name)}
        data-testid="model-owner"
        data-owner={model.owner ?? ""}
      >
        {t("owner.button")}
      </button>
      {model.definition.external === undefined ? (
        <button
          type="button"
          className="control control-small"
          disabled={isBusy}
          onClick={() => actions.onAdapters(model.name)}
          data-testid="model-adapters"
        >
          {t("adapters.button", { count: adaptersOf(model.definition).length })}
        </button>
      ) : null}
      {actions.canSize && model.definition.external === undefined
        ? SIZING_ACTIONS.map((action) => (
            <button
              key={action}
              type="button"
              className="control control-small"
              disabled={!actions.canWrite || isBusy}
              title={disabledTitle ?? t(`sizing.buttonTitle.${action}`)}
              onClick={() => actions.onSizing(model.name, action)}
              data-testid={`model-sizing-${action}`}
            >
              {t(`sizing.button.${action}`)}
            </button>
          ))
        : null}
      <button
        type="button"
        className="control control-small"
        disabled={!actions.canWrite || isBusy}
        title={disabledTitle ?? t("removeTitle", { name: model.name })}
        onClick={() => actions.onRemove(model.name)}
        data-testid="model-remove"
      >
        {t("remove")}
      </button>
    </span>
  );
}

function ReasonsRow({ model, columnCount }: { model: ModelView; columnCount: number }) {
  const { t } = useTranslation("models");
  return (
    <DetailRow
      columnCount={columnCount}
      rowProps={{ "data-testid": "model-reasons", "data-model-name": model.name }}
    >
      <div className="reasons">
        <div className="muted">{t("reasonsTitle", { name: model.name })}</div>
        {model.unplaceableReasons.length ? (
          <ul>
            {model.unplaceableReasons.map((reason) => (
              <li key={reason} className="mono">
                {reason}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t("noReasons")}</p>
        )}
      </div>
    </DetailRow>
  );
}

function ReadyLink({ model, lang }: { model: ModelView; lang: string }) {
  const { t } = useTranslation("models");
  const readyTitle = t("readyTitle", {
    ready: formatNumber(model.replicasReady, lang),
    desired: formatNumber(model.replicasDesired, lang),
    total: formatNumber(model.replicasTotal, lang),
    name: model.name,
  });
  return (
    <Link
      href={`/replicas?model=${encodeURIComponent(model.name)}`}
      title={readyTitle}
      data-testid="model-ready"
    >
      {`${formatNumber(model.replicasReady, lang)} / ${formatNumber(model.replicasDesired, lang)}`}
    </Link>
  );
}

interface Expansion {
  isExpanded(model: ModelView): boolean;
  toggle(name: string): void;
}

function useModelColumns(
  actions: ModelActions,
  expansion: Expansion,
  onOpenInWindow: (name: string) => void,
): GridColumn<ModelView, ModelSortKey>[] {
  const { t, i18n } = useTranslation("models");
  const lang = i18n.language;
  const nowMs = useNow();
  const header = (id: string) => ({
    header: t(`columns.${id as "name"}`),
    headerClassName: `col-${id}`,
  });
  return [
    {
      id: "name",
      ...header("name"),
      sortKey: "name",
      isFixed: true,
      className: "col-name",
      render: (model) => <span className="name-cell">{model.name}</span>,
    },
    {
      id: "state",
      ...header("state"),
      sortKey: "state",
      render: (model) => (
        <StateCell
          model={model}
          isExpanded={expansion.isExpanded(model)}
          onToggle={() => expansion.toggle(model.name)}
        />
      ),
    },
    {
      id: "ready",
      ...header("ready"),
      sortKey: "ready",
      isNumeric: true,
      render: (model) => <ReadyLink model={model} lang={lang} />,
    },
    {
      id: "engines",
      ...header("engines"),
      render: (model) => {
        const engines = definitionEngines(model.definition);
        return engines.length ? <span className="mono">{engines.join(", ")}</span> : ABSENT;
      },
    },
    {
      id: "owner",
      ...header("owner"),
      sortKey: "owner",
      render: (model) => model.owner ?? ABSENT,
    },
    {
      id: "updated",
      ...header("updated"),
      sortKey: "updated",
      cellProps: (model) => ({ title: formatDateTime(model.updatedAt, lang) }),
      render: (model) =>
        t("updatedBy", {
          time: formatRelativeTime(model.updatedAt, nowMs, lang),
          user: model.updatedBy,
        }),
    },
    {
      id: "actions",
      ...header("actions"),
      isFixed: true,
      className: "col-actions",
      render: (model) => (
        <ActionsCell model={model} actions={actions} onOpenInWindow={onOpenInWindow} />
      ),
    },
  ];
}

interface ModelsTableProps {
  models: ModelView[];
  sorting: { sort: SortState<ModelSortKey>; onSort(key: ModelSortKey): void };
  /** Shown under the table when the filter left no rows. */
  empty: ReactNode;
  actions: ModelActions;
  navigation: RowNavigation;
  columnChoice: ColumnChoice;
}

export function ModelsTable(props: ModelsTableProps) {
  const { models, actions, navigation, columnChoice } = props;
  const { t } = useTranslation("models");
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const expansion: Expansion = {
    // A model that became placeable again drops its open reasons row on its own.
    isExpanded: (model) => expanded.has(model.name) && model.state === "unplaceable",
    toggle: (name) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(name)) next.add(name);
        return next;
      }),
  };
  return (
    <DataGrid
      columns={useModelColumns(actions, expansion, navigation.onOpenInWindow)}
      rows={models}
      rowKey={(model) => model.name}
      rowProps={(model) => ({
        "data-testid": "model-row",
        "data-model-name": model.name,
        "data-state": model.state,
      })}
      renderAfterRow={(model, columnCount) =>
        expansion.isExpanded(model) ? <ReasonsRow model={model} columnCount={columnCount} /> : null
      }
      className="models-grid"
      testId="models-table"
      sorting={{ ...props.sorting, titleFor: (column) => t("sortBy", { column }) }}
      empty={props.empty}
      selection={{
        selectedKey: navigation.selectedId,
        onSelect: navigation.onSelect,
        onOpen: navigation.onOpen,
      }}
      columnChoice={columnChoice}
    />
  );
}
