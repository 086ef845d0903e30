"use client";
// One row per key: who owns it, what it may call, its limits and expiry, its state and last use.
// The secret is never here, only the visible prefix that finds it.
import type { KeyView } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import { keyLabel } from "../../lib/events";
import { formatNumber, upperForDisplay } from "../../lib/format";
import { DataGrid, type GridColumn, type RowAttributes } from "../ui/data-grid";
import { momentColumn } from "../ui/moment-column";

function Limits({ keyView, lang }: { keyView: KeyView; lang: string }) {
  const { t } = useTranslation("keys");
  const parts = [
    keyView.requestsPerMinute !== null
      ? t("limits.rpm", { value: formatNumber(keyView.requestsPerMinute, lang) })
      : null,
    keyView.tokensPerMinute !== null
      ? t("limits.tpm", { value: formatNumber(keyView.tokensPerMinute, lang) })
      : null,
    keyView.concurrentMax !== null
      ? t("limits.concurrent", { value: formatNumber(keyView.concurrentMax, lang) })
      : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return <span className="muted">{t("limits.none")}</span>;
  return <span>{parts.join(" · ")}</span>;
}

function RevokeButton({ keyView, actions }: { keyView: KeyView; actions: KeyActions }) {
  const { t } = useTranslation("keys");
  if (keyView.state === "revoked") return null;
  return (
    <button
      type="button"
      className="control control-small control-danger"
      disabled={!actions.canWrite || actions.busyId === keyView.id}
      title={actions.canWrite ? undefined : t("readOnly")}
      onClick={() => actions.onRevoke(keyView)}
      data-testid="key-revoke"
    >
      {t("revoke")}
    </button>
  );
}

function useKeyColumns(actions: KeyActions): GridColumn<KeyView>[] {
  const { t, i18n } = useTranslation("keys");
  const lang = i18n.language;
  const nowMs = useNow();
  const moment = { nowMs, lang };
  return [
    {
      id: "key",
      header: t("columns.key"),
      className: "mono",
      render: (key) => keyLabel(key.prefix),
    },
    { id: "owner", header: t("columns.owner"), render: (key) => key.owner },
    {
      id: "models",
      header: t("columns.models"),
      className: "mono",
      render: (key) => key.models.join(", "),
    },
    {
      id: "limits",
      header: t("columns.limits"),
      render: (key) => <Limits keyView={key} lang={lang} />,
    },
    momentColumn({
      ...moment,
      id: "expires",
      header: t("columns.expires"),
      at: (key) => key.expiresAt,
      empty: <span className="muted">{t("noExpiry")}</span>,
    }),
    {
      id: "state",
      header: t("columns.state"),
      render: (key) => (
        <span
          className={`badge badge-key-${key.state}`}
          data-testid="key-state"
          data-state={key.state}
        >
          {upperForDisplay(t(`state.${key.state}`), lang)}
        </span>
      ),
    },
    momentColumn({
      ...moment,
      id: "created",
      header: t("columns.created"),
      at: (key) => key.createdAt,
      suffix: (key) => <span className="muted">{t("createdBy", { user: key.createdBy })}</span>,
    }),
    momentColumn({
      ...moment,
      id: "lastUsed",
      header: t("columns.lastUsed"),
      at: (key) => key.lastUsedAt,
      empty: <span className="muted">{t("never")}</span>,
      testId: "key-last-used",
    }),
    {
      id: "actions",
      header: t("columns.actions"),
      render: (key) => <RevokeButton keyView={key} actions={actions} />,
    },
  ];
}

function keyRowProps(key: KeyView): RowAttributes {
  return {
    "data-testid": "key-row",
    "data-key-id": key.id,
    "data-owner": key.owner,
    "data-state": key.state,
  };
}

interface KeyActions {
  canWrite: boolean;
  /** The key whose revoke is in flight, so only its button waits. */
  busyId: string | null;
  onRevoke(key: KeyView): void;
}

export function KeysTable({ keys, ...actions }: KeyActions & { keys: KeyView[] }) {
  return (
    <DataGrid
      columns={useKeyColumns(actions)}
      rows={keys}
      rowKey={(key) => key.id}
      rowProps={keyRowProps}
      testId="keys-table"
    />
  );
}
