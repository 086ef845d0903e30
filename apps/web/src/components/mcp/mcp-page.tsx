"use client";
// /admin/mcp, for administrators: the MCP servers behind /mcp with their state, address, rate,
// headers by name (sealed ones marked) and who holds their tools; adding, testing, granting,
// changing, turning off and on, and removing them; and how to point an agent at /mcp.
import type { McpServerView } from "@llmgw/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorPanel } from "../error-panel";
import { DataGrid, DetailRow, type GridColumn } from "../ui/data-grid";
import { AddServerForm } from "./add-server-form";
import { ConnectHelp } from "./connect-help";
import { ServerDetails } from "./server-details";
import { useMcpWrites, type McpWrites } from "./use-mcp-writes";

const REFETCH_INTERVAL_MS = 5_000;

export function McpPage() {
  const { t } = useTranslation("mcp");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const writes = useMcpWrites();
  const [isAdding, setAdding] = useState(false);
  const [opened, setOpened] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const servers = useQuery(
    trpc.mcp.servers.list.queryOptions(undefined, {
      refetchInterval: REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const toggleFailed = [writes.enable, writes.disable, writes.remove].find((m) => m.isError);
  return (
    <section className="page" data-testid="mcp-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <span className="muted" data-testid="mcp-count">
          {servers.data ? t("count", { count: servers.data.length }) : null}
        </span>
        <button
          type="button"
          className="primary"
          onClick={() => setAdding(true)}
          data-testid="mcp-add"
        >
          {t("add.open")}
        </button>
      </div>
      <p className="muted">{t("intro")}</p>
      {isAdding ? <AddServerForm writes={writes} onDone={() => setAdding(false)} /> : null}
      {toggleFailed ? (
        <p className="form-error" role="alert" data-testid="mcp-action-error">
          {describeError(toggleFailed.error, tc)}
        </p>
      ) : null}
      {servers.isError && !servers.data ? (
        <ErrorPanel
          error={servers.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void servers.refetch()}
        />
      ) : null}
      {servers.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {servers.data && servers.data.length === 0 ? (
        <div className="panel" data-testid="mcp-empty">
          <h2>{t("empty.title")}</h2>
          <p>{t("empty.body")}</p>
        </div>
      ) : null}
      {servers.data && servers.data.length > 0 ? (
        <div className="table-scroll">
          <ServersTable
            servers={servers.data}
            writes={writes}
            opened={opened}
            onOpen={(name) => setOpened(opened === name ? null : name)}
            onRemove={setRemoving}
          />
        </div>
      ) : null}
      <ConnectHelp />
      {removing ? (
        <ConfirmDialog
          title={t("confirmRemove.title", { name: removing })}
          body={t("confirmRemove.body", { name: removing })}
          confirmLabel={t("confirmRemove.confirm")}
          cancelLabel={t("confirmRemove.cancel")}
          isBusy={writes.remove.isPending}
          testId="remove-confirm"
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            writes.remove.mutate({ name: removing });
            setRemoving(null);
          }}
        />
      ) : null}
    </section>
  );
}

interface TableProps {
  servers: McpServerView[];
  writes: McpWrites;
  opened: string | null;
  onOpen(name: string): void;
  onRemove(name: string): void;
}

function ServerActions({
  server,
  writes,
  onOpen,
  onRemove,
}: { server: McpServerView } & Omit<TableProps, "servers" | "opened">) {
  const { t } = useTranslation("mcp");
  const isOn = server.state !== "disabled";
  return (
    <>
      <button
        type="button"
        className="control control-small"
        onClick={() => onOpen(server.name)}
        data-testid="mcp-open-details"
      >
        {t("actions.details")}
      </button>
      <button
        type="button"
        className="control control-small"
        onClick={() => (isOn ? writes.disable : writes.enable).mutate({ name: server.name })}
        data-testid="mcp-toggle"
      >
        {isOn ? t("actions.turnOff") : t("actions.turnOn")}
      </button>
      <button
        type="button"
        className="control control-small control-danger"
        onClick={() => onRemove(server.name)}
        data-testid="mcp-remove"
      >
        {t("actions.remove")}
      </button>
    </>
  );
}

function useServerColumns(props: Omit<TableProps, "servers" | "opened">) {
  const { t, i18n } = useTranslation("mcp");
  const columns: GridColumn<McpServerView>[] = [
    {
      id: "name",
      header: t("col.name"),
      render: (server) => (
        <>
          <span className="name-cell">{server.name}</span>
          {server.description ? <div className="muted">{server.description}</div> : null}
        </>
      ),
      cellProps: () => ({ className: "col-name" }),
    },
    {
      id: "state",
      header: t("col.state"),
      render: (server) => (
        <span className={`badge badge-mcp-${server.state}`} data-testid="mcp-server-state">
          {t(`state.${server.state}`).toLocaleUpperCase(i18n.language)}
        </span>
      ),
    },
    {
      id: "address",
      header: t("col.address"),
      render: (server) => (server.isBuiltIn ? t("builtIn") : server.url),
      cellProps: () => ({ className: "mono" }),
    },
    {
      id: "rate",
      header: t("col.rate"),
      render: (server) =>
        server.callsPerMinute === null ? t("noRate") : t("rate", { count: server.callsPerMinute }),
    },
    {
      id: "headers",
      header: t("col.headers"),
      render: (server) =>
        server.headers.length === 0
          ? t("noHeaders")
          : server.headers
              .map((h) => (h.isSealed ? t("sealedHeader", { name: h.name }) : h.name))
              .join(", "),
      cellProps: () => ({ "data-testid": "mcp-server-headers" }),
    },
    {
      id: "grants",
      header: t("col.grants"),
      render: (server) =>
        server.grants.length === 0
          ? t("noGrants")
          : server.grants
              .map((g) => (g.isClosed ? t("closedGrant", { subject: g.subject }) : g.subject))
              .join(", "),
      cellProps: () => ({ "data-testid": "mcp-server-grants" }),
    },
    {
      id: "actions",
      header: t("col.actions"),
      render: (server) => <ServerActions server={server} {...props} />,
      cellProps: () => ({ className: "col-actions" }),
    },
  ];
  return columns;
}

function ServersTable({ servers, writes, opened, onOpen, onRemove }: TableProps) {
  const columns = useServerColumns({ writes, onOpen, onRemove });
  return (
    <DataGrid
      columns={columns}
      rows={servers}
      rowKey={(server) => server.name}
      rowProps={(server) => ({
        "data-testid": "mcp-server-row",
        "data-server-name": server.name,
        "data-state": server.state,
      })}
      testId="mcp-table"
      renderAfterRow={(server, columnCount) =>
        opened === server.name ? (
          <DetailRow columnCount={columnCount}>
            <ServerDetails server={server} writes={writes} />
          </DetailRow>
        ) : null
      }
    />
  );
}
