"use client";
// The audit log: who changed people, roles, keys and settings, newest first. Secret fields were
// redacted before the rows were written. Admins only.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";

export function AuditPage() {
  const { t, i18n } = useTranslation("audit");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const [action, setAction] = useState("");
  const entries = useQuery(
    trpc.audit.list.queryOptions({
      limit: 500,
      ...(action.trim() ? { action: action.trim() } : {}),
    }),
  );
  return (
    <section className="page" data-testid="audit-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <input
          className="filter"
          data-testid="audit-filter"
          placeholder={t("filterPlaceholder")}
          aria-label={t("filterPlaceholder")}
          value={action}
          onChange={(e) => setAction(e.target.value)}
        />
        <span className="muted" data-testid="audit-count">
          {entries.data ? t("count", { count: entries.data.length }) : tc("loading")}
        </span>
      </div>
      {entries.isError ? (
        <ErrorPanel
          error={entries.error}
          title={t("errorTitle")}
          onRetry={() => void entries.refetch()}
        />
      ) : null}
      <div className="table-scroll">
        <table className="grid" data-testid="audit-table">
          <thead>
            <tr>
              {(["at", "actor", "action", "target", "details"] as const).map((c) => (
                <th key={c}>{t(`columns.${c}`)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(entries.data ?? []).map((entry) => (
              <tr key={entry.id} data-testid="audit-row" data-action={entry.action}>
                <td>{formatDateTime(entry.at, i18n.language)}</td>
                <td>{entry.actor}</td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td>{entry.target}</td>
                <td className="truncate">
                  <code>{JSON.stringify(entry.details)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
