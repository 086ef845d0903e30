"use client";
// /admin/guard, for administrators: the guard's policies (who each covers, the texts it reads,
// what it looks for, its judge and what happens when the judge is slow or down), adding one (or
// replacing one of the same name), removing one after asking, and the judge check.
import type { GuardPolicyView } from "@llmgw/api";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { useTRPC } from "../../trpc/react";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorPanel } from "../error-panel";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { AddPolicyForm } from "./add-policy-form";
import { JudgeCheck } from "./judge-check";

const REFETCH_INTERVAL_MS = 5_000;

export function GuardPage() {
  const { t } = useTranslation("guard");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<string | null>(null);
  const [isAdding, setAdding] = useState(false);
  const policies = useQuery(
    trpc.guard.policies.list.queryOptions(undefined, {
      refetchInterval: REFETCH_INTERVAL_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const remove = useMutation(
    trpc.guard.policies.remove.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.guard.pathKey() }),
    }),
  );
  const add = useMutation(
    trpc.guard.policies.add.mutationOptions({
      onSuccess: () => setAdding(false),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.guard.pathKey() }),
    }),
  );
  const columns = usePolicyColumns(setRemoving);
  return (
    <section className="page" data-testid="guard-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <span className="muted" data-testid="guard-count">
          {policies.data ? t("count", { count: policies.data.length }) : null}
        </span>
        <button
          type="button"
          className="primary"
          onClick={() => setAdding(true)}
          data-testid="guard-add"
        >
          {t("add.open")}
        </button>
      </div>
      <p className="muted">{t("intro")}</p>
      {isAdding ? (
        <AddPolicyForm
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
        <p className="form-error" role="alert" data-testid="guard-action-error">
          {describeError(remove.error, tc)}
        </p>
      ) : null}
      {policies.isError && !policies.data ? (
        <ErrorPanel
          error={policies.error}
          title={t("error.title")}
          hint={t("error.hint")}
          onRetry={() => void policies.refetch()}
        />
      ) : null}
      {policies.isPending ? <p className="muted">{tc("loading")}</p> : null}
      {policies.data && policies.data.length === 0 ? (
        <div className="panel" data-testid="guard-empty">
          <h2>{t("empty.title")}</h2>
          <p>{t("empty.body")}</p>
        </div>
      ) : null}
      {policies.data && policies.data.length > 0 ? (
        <div className="table-scroll">
          <DataGrid
            columns={columns}
            rows={policies.data}
            rowKey={(policy) => policy.name}
            rowProps={(policy) => ({
              "data-testid": "guard-policy-row",
              "data-policy": policy.name,
            })}
            testId="guard-table"
          />
        </div>
      ) : null}
      <JudgeCheck />
      {removing ? (
        <ConfirmDialog
          title={t("confirmRemove.title", { name: removing })}
          body={t("confirmRemove.body", { name: removing })}
          confirmLabel={t("confirmRemove.confirm")}
          cancelLabel={t("confirmRemove.cancel")}
          isBusy={remove.isPending}
          testId="guard-remove-confirm"
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

function usePolicyColumns(onRemove: (name: string) => void): GridColumn<GuardPolicyView>[] {
  const { t, i18n } = useTranslation("guard");
  const stages = (p: GuardPolicyView) => p.stages.map((stage) => t(`stage.${stage}`)).join(", ");
  const checks = (p: GuardPolicyView) => p.checks.map((check) => t(`check.${check}`)).join(", ");
  return [
    {
      id: "name",
      header: t("col.name"),
      render: (p) => <span className="name-cell">{p.name}</span>,
    },
    {
      id: "appliesTo",
      header: t("col.appliesTo"),
      render: (p) => p.appliesTo.map((s) => (s === "*" ? t("everyone") : s)).join(", "),
      cellProps: () => ({ className: "mono" }),
    },
    { id: "stages", header: t("col.stages"), render: stages },
    { id: "checks", header: t("col.checks"), render: checks },
    { id: "judge", header: t("col.judge"), render: (p) => p.judgeModel ?? t("noJudge") },
    {
      id: "fail",
      header: t("col.fail"),
      render: (p) => (
        <span className={`badge badge-guard-${p.fail}`} data-testid="guard-fail">
          {t(`fail.${p.fail}`).toLocaleUpperCase(i18n.language)}
        </span>
      ),
    },
    {
      id: "budget",
      header: t("col.budget"),
      isNumeric: true,
      render: (p) => t("budgetMs", { value: p.budgetMs.toLocaleString(i18n.language) }),
    },
    {
      id: "actions",
      header: t("col.actions"),
      render: (p) => (
        <button
          type="button"
          className="control control-small control-danger"
          onClick={() => onRemove(p.name)}
          data-testid="guard-remove"
        >
          {t("actions.remove")}
        </button>
      ),
      cellProps: () => ({ className: "col-actions" }),
    },
  ];
}
