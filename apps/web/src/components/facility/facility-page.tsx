"use client";
// The building as placement sees it: each rack, row, room, site and PDU the nodes name, with the
// holds that keep new replicas out (and, draining, move the old ones off with surge).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";
import { FormError } from "../ui/form-error";
import { FacilityTable } from "./facility-table";
import { HoldDialog } from "./hold-dialog";

const FACILITY_REFETCH_INTERVAL_MS = 5000;

export function FacilityPage() {
  const { t } = useTranslation("facility");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 30_000 }));
  const isAdmin = me.data?.role === "admin";
  const [holding, setHolding] = useState<string | null>(null);
  const facility = useQuery(
    trpc.facility.list.queryOptions(undefined, {
      refetchInterval: FACILITY_REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const release = useMutation(
    trpc.facility.release.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.facility.pathKey() }),
    }),
  );
  const view = facility.data;
  const isEmpty = view && view.domains.length === 0 && view.holds.length === 0;
  return (
    <section className="page" data-testid="facility-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <div className="top-bar-spacer" />
        <button
          type="button"
          className="primary"
          disabled={!isAdmin}
          title={isAdmin ? undefined : t("adminOnly")}
          onClick={() => setHolding("")}
          data-testid="facility-hold-new"
        >
          {t("holdNew")}
        </button>
      </div>
      <p className="muted">{t("intro")}</p>
      <FormError
        error={release.error}
        testId="facility-release-error"
        className="panel panel-error"
      />
      {facility.isError && !view ? (
        <ErrorPanel error={facility.error} onRetry={() => void facility.refetch()} />
      ) : null}
      {facility.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {isEmpty ? (
        <div className="panel" data-testid="facility-empty">
          <h2>{t("empty.title")}</h2>
          <p>{t("empty.body")}</p>
        </div>
      ) : null}
      {view && !isEmpty ? (
        <div className="table-scroll">
          <FacilityTable
            view={view}
            isAdmin={isAdmin}
            isBusy={release.isPending}
            onHold={setHolding}
            onRelease={(domain) => release.mutate({ domain })}
          />
        </div>
      ) : null}
      {holding === null ? null : <HoldDialog domain={holding} onClose={() => setHolding(null)} />}
    </section>
  );
}
