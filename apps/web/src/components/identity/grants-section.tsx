"use client";
// Role grants: who (a person or a group) holds which role on what (the cluster, or an org, team or
// project and everything under it). An admin grants from the people, groups and org tree the
// console already knows, and revokes; AD groups' grants follow the Sign-in mappings instead.
import type { GroupView, OrgUnitView, PersonView, RoleBindingView } from "@llmgw/api";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../confirm-dialog";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { FormError } from "../ui/form-error";
import { latestError, rolesFromSignIn, type IdentityWrites } from "./use-identity-writes";

const ROLES = ["viewer", "operator", "admin"] as const;
type Role = (typeof ROLES)[number];

interface GrantsSectionProps {
  bindings: RoleBindingView[];
  people: PersonView[];
  groups: GroupView[];
  units: OrgUnitView[];
  canEdit: boolean;
  writes: IdentityWrites;
}

function GrantForm({
  people,
  groups,
  units,
  writes,
}: Omit<GrantsSectionProps, "bindings" | "canEdit">) {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const [subject, setSubject] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [scope, setScope] = useState("*");
  const submit = () => {
    const [kind, ...rest] = subject.split(":");
    const name = rest.join(":");
    writes.grant.mutate(
      kind === "group" ? { group: name, role, scope } : { user: name, role, scope },
      { onSuccess: () => setSubject("") },
    );
  };
  return (
    <form
      className="mcp-inline-form"
      data-testid="grant-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <select
        value={subject}
        aria-label={t("grants.subject")}
        onChange={(e) => setSubject(e.target.value)}
        data-testid="grant-subject"
      >
        <option value="">{t("grants.pickSubject")}</option>
        <optgroup label={t("grants.people")}>
          {people.map((p) => (
            <option key={p.id} value={`user:${p.username}`}>
              {p.username}
            </option>
          ))}
        </optgroup>
        <optgroup label={t("grants.groups")}>
          {groups
            .filter((g) => !rolesFromSignIn(g.source))
            .map((g) => (
              <option key={g.id} value={`group:${g.name}`}>
                {g.name}
              </option>
            ))}
        </optgroup>
      </select>
      <select
        value={role}
        aria-label={t("grants.role")}
        onChange={(e) => setRole(e.target.value as Role)}
        data-testid="grant-role"
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {tc(`roles.${r}`)}
          </option>
        ))}
      </select>
      <select
        value={scope}
        aria-label={t("grants.scope")}
        onChange={(e) => setScope(e.target.value)}
        data-testid="grant-scope"
      >
        <option value="*">{t("grants.wholeCluster")}</option>
        {units.map((u) => (
          <option key={`${u.kind}:${u.name}`} value={`${u.kind}:${u.name}`}>
            {`${u.kind}:${u.name}`}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="control"
        disabled={subject === "" || writes.grant.isPending}
        data-testid="grant-submit"
      >
        {t("grants.grant")}
      </button>
    </form>
  );
}

function useGrantColumns(
  canEdit: boolean,
  fromSignIn: ReadonlySet<string>,
  onRevoke: (binding: RoleBindingView) => void,
): GridColumn<RoleBindingView>[] {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const columns: GridColumn<RoleBindingView>[] = [
    {
      id: "subject",
      header: t("grants.subject"),
      render: (b) => (
        <>
          <span className="muted">{t(`grants.kind.${b.subjectKind}`)}</span>{" "}
          <span className="name-cell">{b.subject}</span>
        </>
      ),
    },
    { id: "role", header: t("grants.role"), render: (b) => tc(`roles.${b.role}`) },
    {
      id: "scope",
      header: t("grants.scope"),
      render: (b) => (b.scope === "*" ? t("cluster") : b.scope),
      cellProps: () => ({ className: "mono" }),
    },
    {
      id: "by",
      header: t("grants.by"),
      render: (b) => b.createdBy,
      cellProps: () => ({ className: "muted" }),
    },
  ];
  if (!canEdit) return columns;
  const actions: GridColumn<RoleBindingView> = {
    id: "actions",
    header: t("columns.actions"),
    render: (b) =>
      b.subjectKind === "group" && fromSignIn.has(b.subject) ? (
        <span className="muted">{t("grants.fromSignIn")}</span>
      ) : (
        <button
          type="button"
          className="control control-small control-danger"
          onClick={() => onRevoke(b)}
          data-testid="grant-revoke"
        >
          {t("grants.revoke")}
        </button>
      ),
    cellProps: () => ({ className: "col-actions" }),
  };
  return [...columns, actions];
}

export function GrantsSection(props: GrantsSectionProps) {
  const { bindings, groups, canEdit, writes } = props;
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const [revoking, setRevoking] = useState<RoleBindingView | null>(null);
  const fromSignIn = new Set(groups.filter((g) => rolesFromSignIn(g.source)).map((g) => g.name));
  const columns = useGrantColumns(canEdit, fromSignIn, setRevoking);
  const sorted = [...bindings].sort((a, b) =>
    `${a.scope} ${a.subject}`.localeCompare(`${b.scope} ${b.subject}`),
  );
  return (
    <>
      <div className="toolbar">
        <h2>{t("grants.title")}</h2>
        {canEdit ? <GrantForm {...props} /> : null}
      </div>
      <FormError error={latestError([writes.grant, writes.revoke])} testId="grants-error" />
      <div className="table-scroll">
        <DataGrid
          columns={columns}
          rows={sorted}
          rowKey={(b) => b.id}
          rowProps={(b) => ({
            "data-testid": "grant-row",
            "data-subject": `${b.subjectKind}:${b.subject}`,
            "data-role": b.role,
            "data-scope": b.scope,
          })}
          testId="grants-table"
        />
      </div>
      {bindings.length === 0 ? <p className="muted">{t("grants.empty")}</p> : null}
      {revoking ? (
        <ConfirmDialog
          title={t("grants.revokeConfirm.title")}
          body={t("grants.revokeConfirm.body", {
            role: tc(`roles.${revoking.role}`),
            subject: revoking.subject,
            scope: revoking.scope === "*" ? t("cluster") : revoking.scope,
          })}
          confirmLabel={t("grants.revokeConfirm.ok")}
          cancelLabel={t("cancel")}
          isBusy={writes.revoke.isPending}
          testId="grant-revoke-confirm"
          onConfirm={() => {
            writes.revoke.mutate({ id: revoking.id });
            setRevoking(null);
          }}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
    </>
  );
}
