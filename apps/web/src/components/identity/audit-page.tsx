"use client";
// The audit log: who changed people, roles, keys and settings, newest first, filtered by action,
// actor and target on the server (a person's, group's or key's name finds the rows that hold its
// id). Targets read as names; each row's details open in full. Secret fields were redacted before
// the rows were written. Admins only.
import type { AuditEntry } from "@llmgw/api";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useDeskState } from "../../hooks/use-desk-state";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { DataGrid, type GridColumn } from "../ui/data-grid";

const FILTERS = ["action", "actor", "target"] as const;
type Filter = (typeof FILTERS)[number];

function Details({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation("audit");
  const details = JSON.stringify(entry.details);
  if (details === "{}") return <span className="muted">{t("noDetails")}</span>;
  return (
    <details data-testid="audit-details">
      <summary className="truncate">
        <code>{details}</code>
      </summary>
      <pre>{JSON.stringify(entry.details, null, 2)}</pre>
    </details>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const { t, i18n } = useTranslation("audit");
  const columns: GridColumn<AuditEntry>[] = [
    {
      id: "at",
      header: t("columns.at"),
      render: (entry) => formatDateTime(entry.at, i18n.language),
    },
    { id: "actor", header: t("columns.actor"), render: (entry) => entry.actor },
    {
      id: "action",
      header: t("columns.action"),
      render: (entry) => <code>{entry.action}</code>,
    },
    {
      id: "target",
      header: t("columns.target"),
      cellProps: (entry) => ({
        title: entry.targetName === entry.target ? undefined : entry.target,
      }),
      render: (entry) => entry.targetName,
    },
    {
      id: "details",
      header: t("columns.details"),
      className: "audit-details",
      render: (entry) => <Details entry={entry} />,
    },
  ];
  return (
    <DataGrid
      columns={columns}
      rows={entries}
      rowKey={(entry) => String(entry.id)}
      rowProps={(entry) => ({ "data-testid": "audit-row", "data-action": entry.action })}
      testId="audit-table"
    />
  );
}

const NO_FILTERS: Record<Filter, string> = { action: "", actor: "", target: "" };

function isAuditFilters(value: unknown): value is Record<Filter, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    FILTERS.every((f) => typeof (value as Record<string, unknown>)[f] === "string")
  );
}

export function AuditPage() {
  const { t } = useTranslation("audit");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const [filters, setFilters] = useDeskState("table.audit.filters", isAuditFilters, NO_FILTERS);
  const chosen = Object.fromEntries(
    FILTERS.filter((f) => filters[f].trim()).map((f) => [f, filters[f].trim()]),
  );
  const entries = useQuery(trpc.audit.list.queryOptions({ limit: 500, ...chosen }));
  const isFiltered = Object.keys(chosen).length > 0;
  return (
    <section className="page" data-testid="audit-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        {FILTERS.map((f) => (
          <input
            key={f}
            className="filter"
            data-testid={f === "action" ? "audit-filter" : `audit-filter-${f}`}
            placeholder={t(`filter.${f}`)}
            aria-label={t(`filter.${f}`)}
            value={filters[f]}
            onChange={(e) => setFilters((previous) => ({ ...previous, [f]: e.target.value }))}
          />
        ))}
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
      {entries.data?.length === 0 ? (
        <p className="panel muted" data-testid="audit-empty">
          {isFiltered ? t("emptyFiltered") : t("empty")}
        </p>
      ) : null}
      <div className="table-scroll">
        <AuditTable entries={entries.data ?? []} />
      </div>
    </section>
  );
}
