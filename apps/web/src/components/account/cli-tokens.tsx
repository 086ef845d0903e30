"use client";
// Tokens for the CLI: made here by the person for themselves, shown once (the store keeps a hash),
// listed with their expiry, revoked at once. `llmgw ctl login --token-stdin` takes one.
import type { CreatedToken, TokenView } from "@llmgw/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { ShownOnce } from "../shown-once";
import { FormError } from "../ui/form-error";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { FormField } from "../ui/form-field";

const EXPIRY_DAYS = [7, 30, 90, 365] as const;
const DEFAULT_EXPIRY_DAYS = 90;

function CreatedTokenPanel({
  created,
  apiUrl,
  onDone,
}: {
  created: CreatedToken;
  apiUrl: string;
  onDone(): void;
}) {
  const { t } = useTranslation("account");
  return (
    <ShownOnce
      value={created.token}
      testId="created-token"
      onDone={onDone}
      labels={{
        warning: t("tokens.createdWarning"),
        copy: t("tokens.copy"),
        copied: t("tokens.copied"),
        copyFailed: t("tokens.copyFailed"),
        done: t("tokens.done"),
      }}
    >
      <p className="muted">{t("tokens.usage")}</p>
      <p className="mono command" data-testid="created-token-command">
        {t("tokens.command", { server: apiUrl })}
      </p>
    </ShownOnce>
  );
}

function TokenForm({ onCreated }: { onCreated(created: CreatedToken): void }) {
  const { t } = useTranslation("account");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [label, setLabel] = useState("");
  const [days, setDays] = useState<number>(DEFAULT_EXPIRY_DAYS);
  const create = useMutation(
    trpc.auth.createToken.mutationOptions({
      onSuccess: async (created) => {
        setLabel("");
        onCreated(created);
        await queryClient.invalidateQueries({ queryKey: trpc.auth.tokens.queryKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ label, expiresInDays: days });
  };
  return (
    <form className="form-row" onSubmit={submit} data-testid="token-form">
      <FormField label={t("tokens.label")}>
        <input
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          placeholder={t("tokens.labelHint")}
          data-testid="token-label"
        />
      </FormField>
      <FormField label={t("tokens.expires")}>
        <select
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
          data-testid="token-expires"
        >
          {EXPIRY_DAYS.map((count) => (
            <option key={count} value={count}>
              {t("tokens.expiresIn", { count })}
            </option>
          ))}
        </select>
      </FormField>
      <button
        type="submit"
        className="primary"
        disabled={create.isPending}
        data-testid="token-create"
      >
        {t("tokens.create")}
      </button>
      <FormError
        error={create.error}
        testId="token-create-error"
        className="panel panel-error"
        listsDetails
      />
    </form>
  );
}

function tokenColumns(
  t: TFunction<"account">,
  language: string,
  onRevoke: (token: TokenView) => void,
): GridColumn<TokenView>[] {
  return [
    { id: "label", header: t("tokens.columns.label"), render: (token) => token.label },
    {
      id: "created",
      header: t("tokens.columns.created"),
      render: (token) => formatDateTime(token.createdAt, language),
    },
    {
      id: "expires",
      header: t("tokens.columns.expires"),
      render: (token) => formatDateTime(token.expiresAt, language),
    },
    {
      id: "actions",
      header: t("tokens.columns.actions"),
      render: (token) => (
        <button
          type="button"
          className="control-small"
          onClick={() => onRevoke(token)}
          data-testid="token-revoke"
        >
          {t("tokens.revoke")}
        </button>
      ),
    },
  ];
}

export function CliTokens({ apiUrl }: { apiUrl: string }) {
  const { t, i18n } = useTranslation("account");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<TokenView | null>(null);
  const tokens = useQuery(trpc.auth.tokens.queryOptions());
  const revoke = useMutation(
    trpc.auth.revokeToken.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.auth.tokens.queryKey() }),
    }),
  );
  const list = tokens.data;
  return (
    <div className="panel" data-testid="cli-tokens">
      <h2>{t("tokens.title")}</h2>
      <p className="muted">{t("tokens.body")}</p>
      {created ? (
        <CreatedTokenPanel created={created} apiUrl={apiUrl} onDone={() => setCreated(null)} />
      ) : (
        <TokenForm onCreated={setCreated} />
      )}
      {tokens.isError ? (
        <p className="panel panel-error" role="alert">
          {describeError(tokens.error, tc)}
        </p>
      ) : null}
      {revoke.isError ? (
        <p className="panel panel-error" role="alert" data-testid="token-revoke-error">
          {describeError(revoke.error, tc)}
        </p>
      ) : null}
      {list && list.length === 0 ? (
        <p className="muted" data-testid="tokens-empty">
          {t("tokens.empty")}
        </p>
      ) : null}
      {list && list.length > 0 ? (
        <DataGrid
          columns={tokenColumns(t, i18n.language, setRevoking)}
          rows={list}
          rowKey={(token) => token.id}
          rowProps={(token) => ({ "data-testid": "token-row", "data-label": token.label })}
          testId="tokens-table"
        />
      ) : null}
      {revoking ? (
        <ConfirmDialog
          title={t("tokens.revokeTitle")}
          body={t("tokens.revokeBody", { label: revoking.label })}
          confirmLabel={t("tokens.revoke")}
          cancelLabel={t("cancel")}
          isBusy={revoke.isPending}
          testId="token-revoke-confirm"
          onConfirm={() => {
            revoke.mutate({ id: revoking.id });
            setRevoking(null);
          }}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
    </div>
  );
}
