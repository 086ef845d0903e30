"use client";
// How the fleet is shared: per org, team and project, what it holds against what it is guaranteed
// and may hold, one bar per resource, with the borrowed part apart and scopes at their limit
// marked. Admins set and remove quotas here; everyone signed in may look.
import type { QuotaLine, ScopeQuotaView } from "@llmgw/api";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { formatNumber } from "../../lib/format";
import { resourceParts } from "../../lib/quotas";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorPanel } from "../error-panel";
import { QuotaBar } from "./quota-bar";
import { QuotaDialog } from "./quota-dialog";

const QUOTAS_REFETCH_INTERVAL_MS = 5_000;

function useLineWords() {
  const { t, i18n } = useTranslation("quotas");
  const lang = i18n.language;
  const amount = (value: number) => formatNumber(value, lang, Number.isInteger(value) ? 0 : 1);
  return {
    label(resource: string): string {
      const { kind, gpuClass } = resourceParts(resource);
      return kind === "gpus" ? t("resource.gpus", { gpuClass }) : t(`resource.${kind}`);
    },
    title(line: QuotaLine): string {
      return t("bar", {
        held: amount(line.held),
        guaranteed: amount(line.guaranteed),
        limit: line.limit === null ? t("noLimit") : amount(line.limit),
        borrowed: amount(line.borrowed),
      });
    },
  };
}

interface ScopeCardProps {
  view: ScopeQuotaView;
  isAdmin: boolean;
  onEdit(): void;
  onRemove(): void;
}

function ScopeCard({ view, isAdmin, onEdit, onRemove }: ScopeCardProps) {
  const { t } = useTranslation("quotas");
  const words = useLineWords();
  const quota = view.quota;
  return (
    <section className="panel quota-scope" data-testid="quota-scope" data-scope={view.scope}>
      <div className="toolbar">
        <h2>{view.scope}</h2>
        {view.atLimit ? (
          <span className="status status-stale" data-testid="quota-at-limit">
            {t("atLimit")}
          </span>
        ) : null}
        <span className="muted">
          {quota
            ? t("summary", {
                guarantee: quota.guaranteeText || t("nothing"),
                limit: quota.limitText ?? t("noLimit"),
              })
            : t("noQuota")}
        </span>
        <div className="top-bar-spacer" />
        {isAdmin ? (
          <>
            <button type="button" className="control control-small" onClick={onEdit}>
              {quota ? t("edit") : t("setHere")}
            </button>
            {quota ? (
              <button
                type="button"
                className="control control-small"
                onClick={onRemove}
                data-testid="quota-remove"
              >
                {t("remove")}
              </button>
            ) : null}
          </>
        ) : null}
      </div>
      <ul className="plain-list quota-lines">
        {view.lines.map((line) => (
          <li key={line.resource} className="quota-line">
            <span className="quota-resource">{words.label(line.resource)}</span>
            <QuotaBar line={line} title={words.title(line)} />
            <span className="muted quota-figures">{words.title(line)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Legend() {
  const { t } = useTranslation("quotas");
  return (
    <p className="quota-legend muted">
      <span className="quota-key quota-key-within" /> {t("legend.within")}{" "}
      <span className="quota-key quota-key-borrowed" /> {t("legend.borrowed")}{" "}
      <span className="quota-key quota-key-guarantee" /> {t("legend.guarantee")}{" "}
      <span className="quota-key quota-key-limit" /> {t("legend.limit")}
    </p>
  );
}

export function QuotasPage() {
  const { t } = useTranslation("quotas");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions());
  const isAdmin = me.data?.role === "admin";
  const [editing, setEditing] = useState<ScopeQuotaView | "new" | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const quotas = useQuery(
    trpc.quotas.list.queryOptions(undefined, {
      refetchInterval: QUOTAS_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const remove = useMutation(
    trpc.quotas.remove.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.quotas.pathKey() }),
    }),
  );
  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        {isAdmin ? (
          <button
            type="button"
            className="primary"
            onClick={() => setEditing("new")}
            data-testid="quota-set"
          >
            {t("set")}
          </button>
        ) : (
          <span className="muted">{t("readOnly")}</span>
        )}
      </div>
      <Legend />
      {remove.isError ? (
        <div className="panel panel-error" role="alert" data-testid="quota-remove-error">
          {describeError(remove.error, tc)}
        </div>
      ) : null}
      {quotas.isError && !quotas.data ? (
        <ErrorPanel
          error={quotas.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void quotas.refetch()}
        />
      ) : null}
      {quotas.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {quotas.data?.length === 0 ? (
        <div className="panel" data-testid="quotas-empty">
          <h2>{t("empty.title")}</h2>
          <p>{t("empty.body")}</p>
        </div>
      ) : null}
      {quotas.data?.map((view) => (
        <ScopeCard
          key={view.scope}
          view={view}
          isAdmin={isAdmin}
          onEdit={() => setEditing(view)}
          onRemove={() => setRemoving(view.scope)}
        />
      ))}
      {editing ? (
        <QuotaDialog
          editing={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={t("confirmRemove.title", { scope: removing })}
          body={t("confirmRemove.body", { scope: removing })}
          confirmLabel={t("confirmRemove.confirm")}
          cancelLabel={t("confirmRemove.cancel")}
          isBusy={remove.isPending}
          testId="quota-remove-confirm"
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            remove.mutate({ scope: removing });
            setRemoving(null);
          }}
        />
      ) : null}
    </section>
  );
}
