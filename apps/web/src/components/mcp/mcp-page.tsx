"use client";
// /admin/mcp, for administrators: the MCP servers behind /mcp with their state, address, rate,
// headers by name (sealed ones marked) and who holds their tools; adding, testing, granting,
// changing, turning off and on, and removing them; and how to point an agent at /mcp.
import type { McpServerView } from "@llmgw/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorPanel } from "../error-panel";
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

function ServersTable({ servers, writes, opened, onOpen, onRemove }: TableProps) {
  const { t } = useTranslation("mcp");
  return (
    <table className="grid" data-testid="mcp-table">
      <thead>
        <tr>
          <th>{t("col.name")}</th>
          <th>{t("col.state")}</th>
          <th>{t("col.address")}</th>
          <th>{t("col.rate")}</th>
          <th>{t("col.headers")}</th>
          <th>{t("col.grants")}</th>
          <th>{t("col.actions")}</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((server) => (
          <Fragment key={server.name}>
            <ServerRow server={server} writes={writes} onOpen={onOpen} onRemove={onRemove} />
            {opened === server.name ? (
              <tr className="detail-row">
                <td colSpan={7}>
                  <ServerDetails server={server} writes={writes} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

function ServerRow({
  server,
  writes,
  onOpen,
  onRemove,
}: {
  server: McpServerView;
  writes: McpWrites;
  onOpen(name: string): void;
  onRemove(name: string): void;
}) {
  const { t, i18n } = useTranslation("mcp");
  const isOn = server.state !== "disabled";
  return (
    <tr data-testid="mcp-server-row" data-server-name={server.name} data-state={server.state}>
      <td className="col-name">
        <span className="name-cell">{server.name}</span>
        {server.description ? <div className="muted">{server.description}</div> : null}
      </td>
      <td>
        <span className={`badge badge-mcp-${server.state}`} data-testid="mcp-server-state">
          {t(`state.${server.state}`).toLocaleUpperCase(i18n.language)}
        </span>
      </td>
      <td className="mono">{server.isBuiltIn ? t("builtIn") : server.url}</td>
      <td>
        {server.callsPerMinute === null ? t("noRate") : t("rate", { count: server.callsPerMinute })}
      </td>
      <td data-testid="mcp-server-headers">
        {server.headers.length === 0
          ? t("noHeaders")
          : server.headers
              .map((h) => (h.isSealed ? t("sealedHeader", { name: h.name }) : h.name))
              .join(", ")}
      </td>
      <td data-testid="mcp-server-grants">
        {server.grants.length === 0
          ? t("noGrants")
          : server.grants
              .map((g) => (g.isClosed ? t("closedGrant", { subject: g.subject }) : g.subject))
              .join(", ")}
      </td>
      <td className="col-actions">
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
      </td>
    </tr>
  );
}
