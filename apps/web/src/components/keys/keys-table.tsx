"use client";
// One row per key: who owns it, what it may call, its limits and expiry, its state and last use.
// The secret is never here, only the visible prefix that finds it.
import type { KeyView } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { useNow } from "../../hooks/use-now";
import { keyLabel } from "../../lib/events";
import {
  formatDateTime,
  formatNumber,
  formatRelativeTime,
  upperForDisplay,
} from "../../lib/format";

const COLUMN_IDS = [
  "key",
  "owner",
  "models",
  "limits",
  "expires",
  "state",
  "created",
  "lastUsed",
  "actions",
] as const;

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

function Moment({
  iso,
  empty,
  nowMs,
  lang,
}: {
  iso: string | null;
  empty: string;
  nowMs: number;
  lang: string;
}) {
  if (!iso) return <span className="muted">{empty}</span>;
  return <span title={formatDateTime(iso, lang)}>{formatRelativeTime(iso, nowMs, lang)}</span>;
}

interface KeyRowProps {
  keyView: KeyView;
  canWrite: boolean;
  isBusy: boolean;
  nowMs: number;
  lang: string;
  onRevoke(key: KeyView): void;
}

function KeyRow({ keyView, canWrite, isBusy, nowMs, lang, onRevoke }: KeyRowProps) {
  const { t } = useTranslation("keys");
  return (
    <tr
      data-testid="key-row"
      data-key-id={keyView.id}
      data-owner={keyView.owner}
      data-state={keyView.state}
    >
      <td className="mono">{keyLabel(keyView.prefix)}</td>
      <td>{keyView.owner}</td>
      <td className="mono">{keyView.models.join(", ")}</td>
      <td>
        <Limits keyView={keyView} lang={lang} />
      </td>
      <td>
        <Moment iso={keyView.expiresAt} empty={t("noExpiry")} nowMs={nowMs} lang={lang} />
      </td>
      <td>
        <span
          className={`badge badge-key-${keyView.state}`}
          data-testid="key-state"
          data-state={keyView.state}
        >
          {upperForDisplay(t(`state.${keyView.state}`), lang)}
        </span>
      </td>
      <td title={formatDateTime(keyView.createdAt, lang)}>
        {formatRelativeTime(keyView.createdAt, nowMs, lang)}{" "}
        <span className="muted">{t("createdBy", { user: keyView.createdBy })}</span>
      </td>
      <td data-testid="key-last-used">
        <Moment iso={keyView.lastUsedAt} empty={t("never")} nowMs={nowMs} lang={lang} />
      </td>
      <td>
        {keyView.state !== "revoked" ? (
          <button
            type="button"
            className="control control-small control-danger"
            disabled={!canWrite || isBusy}
            title={canWrite ? undefined : t("readOnly")}
            onClick={() => onRevoke(keyView)}
            data-testid="key-revoke"
          >
            {t("revoke")}
          </button>
        ) : null}
      </td>
    </tr>
  );
}

interface KeysTableProps {
  keys: KeyView[];
  canWrite: boolean;
  busyId: string | null;
  onRevoke(key: KeyView): void;
}

export function KeysTable({ keys, canWrite, busyId, onRevoke }: KeysTableProps) {
  const { t, i18n } = useTranslation("keys");
  const nowMs = useNow();
  return (
    <table className="grid" data-testid="keys-table">
      <thead>
        <tr>
          {COLUMN_IDS.map((id) => (
            <th key={id}>{t(`columns.${id}`)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {keys.map((keyView) => (
          <KeyRow
            key={keyView.id}
            keyView={keyView}
            canWrite={canWrite}
            isBusy={busyId === keyView.id}
            nowMs={nowMs}
            lang={i18n.language}
            onRevoke={onRevoke}
          />
        ))}
      </tbody>
    </table>
  );
}
