"use client";
// The catalog as a dense table. Row height stays fixed while states change (a parked model's error
// is one truncated line with the full text in its title); only the reasons an operator asks for
// open an extra row beneath their model.
import type { ModelView } from "@llmgw/api";
import Link from "next/link";
import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import { ABSENT, formatDateTime, formatNumber, formatRelativeTime } from "../../lib/format";
import { canRetry, definitionEngines } from "../../lib/models";
import { ModelStateBadge } from "./model-state-badge";

const COLUMN_IDS = ["name", "state", "ready", "engines", "owner", "updated", "actions"] as const;

export interface ModelActions {
  canWrite: boolean;
  /** The model whose write is in flight, so only its buttons wait. */
  busyName: string | null;
  onRetry(name: string): void;
  onRemove(name: string): void;
  onFallbacks(name: string): void;
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

function ActionsCell({ model, actions }: { model: ModelView; actions: ModelActions }) {
  const { t } = useTranslation("models");
  const isBusy = actions.busyName === model.name;
  const disabledTitle = actions.canWrite ? undefined : t("readOnly");
  return (
    <span className="row-actions">
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
        title={disabledTitle ?? t("removeTitle", { name: model.name })}
        onClick={() => actions.onRemove(model.name)}
        data-testid="model-remove"
      >
        {t("remove")}
      </button>
    </span>
  );
}

function ReasonsRow({ model }: { model: ModelView }) {
  const { t } = useTranslation("models");
  return (
    <tr className="detail-row" data-testid="model-reasons" data-model-name={model.name}>
      <td colSpan={COLUMN_IDS.length}>
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
      </td>
    </tr>
  );
}

function ModelRow({
  model,
  actions,
  isExpanded,
  onToggle,
}: {
  model: ModelView;
  actions: ModelActions;
  isExpanded: boolean;
  onToggle(): void;
}) {
  const { t, i18n } = useTranslation("models");
  const lang = i18n.language;
  const nowMs = useNow();
  const engines = definitionEngines(model.definition);
  const readyText = `${formatNumber(model.replicasReady, lang)} / ${formatNumber(model.replicasDesired, lang)}`;
  const readyTitle = t("readyTitle", {
    ready: formatNumber(model.replicasReady, lang),
    desired: formatNumber(model.replicasDesired, lang),
    total: formatNumber(model.replicasTotal, lang),
    name: model.name,
  });
  return (
    <tr data-testid="model-row" data-model-name={model.name} data-state={model.state}>
      <td className="col-name">
        <span className="name-cell">{model.name}</span>
      </td>
      <td>
        <StateCell model={model} isExpanded={isExpanded} onToggle={onToggle} />
      </td>
      <td className="numeric">
        <Link
          href={`/replicas?model=${encodeURIComponent(model.name)}`}
          title={readyTitle}
          data-testid="model-ready"
        >
          {readyText}
        </Link>
      </td>
      <td>{engines.length ? <span className="mono">{engines.join(", ")}</span> : ABSENT}</td>
      <td>{model.owner ?? ABSENT}</td>
      <td title={formatDateTime(model.updatedAt, lang)}>
        {t("updatedBy", {
          time: formatRelativeTime(model.updatedAt, nowMs, lang),
          user: model.updatedBy,
        })}
      </td>
      <td className="col-actions">
        <ActionsCell model={model} actions={actions} />
      </td>
    </tr>
  );
}

export function ModelsTable({ models, actions }: { models: ModelView[]; actions: ModelActions }) {
  const { t } = useTranslation("models");
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (name: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(name)) next.add(name);
      return next;
    });
  return (
    <table className="grid models-grid" data-testid="models-table">
      <thead>
        <tr>
          {COLUMN_IDS.map((id) => (
            <th key={id} className={id === "ready" ? `col-${id} numeric` : `col-${id}`}>
              {t(`columns.${id}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {models.map((model) => {
          // A model that became placeable again drops its open reasons row on its own.
          const isExpanded = expanded.has(model.name) && model.state === "unplaceable";
          return (
            <Fragment key={model.name}>
              <ModelRow
                model={model}
                actions={actions}
                isExpanded={isExpanded}
                onToggle={() => toggle(model.name)}
              />
              {isExpanded ? <ReasonsRow model={model} /> : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
