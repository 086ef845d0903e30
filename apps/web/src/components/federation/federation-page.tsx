"use client";
// /admin/federation, for administrators: the peer clusters whose models are offered here as
// PEER/MODEL, with whether each is in routing, how long its /ready took, why it is out, and its
// models (withdrawn ones marked); "Sync now" reads their /v1/models again; "Add peer" opens the
// add form; "Remove" takes a peer out, after asking.
import type { PeerView } from "@llmgw/api";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { AddPeerForm } from "./add-peer-form";
import { RemovePeerDialog } from "./remove-peer-dialog";

const REFETCH_INTERVAL_MS = 5_000;

export function FederationPage() {
  const { t } = useTranslation("federation");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [isAdding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const peers = useQuery(
    trpc.federation.list.queryOptions(undefined, {
      refetchInterval: REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const sync = useMutation(
    trpc.federation.sync.mutationOptions({
      onSettled: () => queryClient.invalidateQueries(trpc.federation.list.queryFilter()),
    }),
  );
  const add = useMutation(
    trpc.federation.add.mutationOptions({
      onSuccess: () => setAdding(false),
      onSettled: () => queryClient.invalidateQueries(trpc.federation.list.queryFilter()),
    }),
  );
  const remove = useMutation(
    trpc.federation.remove.mutationOptions({
      onSettled: () => queryClient.invalidateQueries(trpc.federation.list.queryFilter()),
    }),
  );
  const columns = usePeerColumns(setRemoving);
  return (
    <section className="page" data-testid="federation-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <span className="muted" data-testid="federation-count">
          {peers.data ? t("count", { count: peers.data.length }) : null}
        </span>
        <button
          type="button"
          className="primary"
          disabled={sync.isPending || !peers.data || peers.data.length === 0}
          onClick={() => sync.mutate({})}
          data-testid="federation-sync"
        >
          {sync.isPending ? t("syncing") : t("sync")}
        </button>
        <button type="button" onClick={() => setAdding(true)} data-testid="federation-add">
          {t("add.open")}
        </button>
      </div>
      <p className="muted">{t("intro")}</p>
      {isAdding ? (
        <AddPeerForm
          send={(input) => add.mutate(input)}
          onClose={() => {
            add.reset();
            setAdding(false);
          }}
          error={add.error}
          isPending={add.isPending}
        />
      ) : null}
      {remove.isError ? (
        <p className="form-error" role="alert" data-testid="federation-remove-error">
          {describeError(remove.error, tc)}
        </p>
      ) : null}
      {sync.isError ? (
        <p className="form-error" role="alert">
          {describeError(sync.error, tc)}
        </p>
      ) : null}
      {sync.data?.some((result) => !result.ok) ? (
        <p className="form-error" role="alert" data-testid="federation-sync-failed">
          {t("syncFailed", {
            peers: sync.data
              .filter((result) => !result.ok)
              .map((result) => result.peer)
              .join(", "),
          })}
        </p>
      ) : null}
      {peers.isError && !peers.data ? (
        <ErrorPanel
          error={peers.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void peers.refetch()}
        />
      ) : null}
      {peers.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {peers.data && peers.data.length === 0 ? (
        <div className="panel" data-testid="federation-empty">
          <h2>{t("empty.title")}</h2>
          <p>{t("empty.body")}</p>
        </div>
      ) : null}
      {peers.data && peers.data.length > 0 ? (
        <div className="table-scroll">
          <DataGrid
            columns={columns}
            rows={peers.data}
            rowKey={(peer) => peer.name}
            rowProps={(peer) => ({
              "data-testid": "federation-peer-row",
              "data-peer-name": peer.name,
              "data-state": peer.state,
            })}
            testId="federation-table"
          />
        </div>
      ) : null}
      {removing ? (
        <RemovePeerDialog
          name={removing}
          isBusy={remove.isPending}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            remove.mutate({ name: removing });
            setRemoving(null);
          }}
        />
      ) : null}
    </section>
  );
}

export function usePeerColumns(onRemove: (name: string) => void): GridColumn<PeerView>[] {
  const { t, i18n } = useTranslation("federation");
  return [
    {
      id: "name",
      header: t("col.name"),
      render: (peer) => <span className="name-cell">{peer.name}</span>,
      cellProps: () => ({ className: "col-name" }),
    },
    {
      id: "state",
      header: t("col.state"),
      render: (peer) => (
        <>
          <span className={`badge badge-peer-${peer.state}`} data-testid="federation-peer-state">
            {t(`state.${peer.state}`).toLocaleUpperCase(i18n.language)}
          </span>
          {peer.lastError ? <div className="muted">{peer.lastError}</div> : null}
        </>
      ),
    },
    {
      id: "latency",
      header: t("col.latency"),
      render: (peer) =>
        peer.latencyMs === null ? t("notChecked") : t("latency", { ms: peer.latencyMs }),
    },
    {
      id: "address",
      header: t("col.address"),
      render: (peer) => peer.url,
      cellProps: () => ({ className: "mono" }),
    },
    {
      id: "models",
      header: t("col.models"),
      render: (peer) =>
        peer.models.length === 0
          ? t("noModels")
          : peer.models
              .map((model) =>
                model.isWithdrawn ? t("withdrawn", { name: model.name }) : model.name,
              )
              .join(", "),
      cellProps: () => ({ "data-testid": "federation-peer-models" }),
    },
    {
      id: "tags",
      header: t("col.tags"),
      render: (peer) => (peer.sendsTags ? t("sendsTags") : t("keepsTags")),
    },
    {
      id: "actions",
      header: t("col.actions"),
      render: (peer) => (
        <button
          type="button"
          className="control control-small control-danger"
          onClick={() => onRemove(peer.name)}
          data-testid="federation-remove"
        >
          {t("actions.remove")}
        </button>
      ),
      cellProps: () => ({ className: "col-actions" }),
    },
  ];
}
