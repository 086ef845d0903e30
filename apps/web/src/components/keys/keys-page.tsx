"use client";
// API keys for /v1: everyone signed in sees them; admins and operators create and revoke. The
// control plane enforces the same rule, so a disabled button here is a courtesy, not the guard.
import type { KeyView } from "@llmgw/api";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite } from "../../hooks/use-can-write";
import { describeError } from "../../lib/errors";
import { keyLabel } from "../../lib/events";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorPanel } from "../error-panel";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeysTable } from "./keys-table";

const KEYS_REFETCH_INTERVAL_MS = 10_000;

export function KeysPage() {
  const { t } = useTranslation("keys");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const [isCreateOpen, setCreateOpen] = useState(false);
  const [revoking, setRevoking] = useState<KeyView | null>(null);
  const keysQuery = useQuery(
    trpc.keys.list.queryOptions(undefined, {
      refetchInterval: KEYS_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }),
    }),
  );
  const keys = keysQuery.data;

  return (
    <section className="page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <span className="muted" data-testid="keys-count">
          {keys ? t("count", { count: keys.length }) : null}
        </span>
        <div className="top-bar-spacer" />
        {canWrite ? null : (
          <span className="muted" data-testid="keys-read-only">
            {t("readOnly")}
          </span>
        )}
        <button
          type="button"
          className="primary"
          disabled={!canWrite}
          onClick={() => setCreateOpen(true)}
          data-testid="create-key"
        >
          {t("create")}
        </button>
      </div>
      {revoke.isError ? (
        <div className="panel panel-error" role="alert" data-testid="key-action-error">
          {t("actionFailed", {
            prefix: revoke.variables?.id ?? "",
            message: describeError(revoke.error, tc),
          })}
        </div>
      ) : null}
      {keysQuery.isError && !keys ? (
        <ErrorPanel
          error={keysQuery.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void keysQuery.refetch()}
        />
      ) : null}
      {keysQuery.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {keys && keys.length === 0 ? (
        <div className="panel muted" data-testid="keys-empty">
          {t("empty")}
        </div>
      ) : null}
      {keys && keys.length > 0 ? (
        <div className="table-scroll">
          <KeysTable
            keys={keys}
            canWrite={canWrite}
            busyId={revoke.isPending ? (revoke.variables?.id ?? null) : null}
            onRevoke={setRevoking}
          />
        </div>
      ) : null}
      {isCreateOpen ? <CreateKeyDialog onClose={() => setCreateOpen(false)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title={t("revokeConfirm.title")}
          body={t("revokeConfirm.body", {
            prefix: keyLabel(revoking.prefix),
            owner: revoking.owner,
          })}
          confirmLabel={t("revokeConfirm.ok")}
          cancelLabel={t("revokeConfirm.cancel")}
          isBusy={revoke.isPending}
          testId="revoke-confirm"
          onConfirm={() => {
            revoke.mutate({ id: revoking.id });
            setRevoking(null);
          }}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
    </section>
  );
}
