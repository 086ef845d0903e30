"use client";
// The people table: who may sign in, from where, with which roles, groups and grants. An admin
// adds local accounts, changes a person's direct role, disables, signs out everywhere and removes;
// everyone else reads it.
import type { PersonView } from "@llmgw/api";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { ConfirmDialog } from "../confirm-dialog";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { FormError } from "../ui/form-error";
import { AddPersonDialog } from "./add-person-dialog";
import { latestError, type IdentityWrites } from "./use-identity-writes";

const ROLE_CHOICES = ["admin", "operator", "viewer"] as const;
type PeopleColumn =
  "person" | "role" | "sourceColumn" | "groups" | "grants" | "lastSignIn" | "state";

interface CellProps {
  person: PersonView;
  canEdit: boolean;
  writes: IdentityWrites;
}

function PersonCell({ person }: { person: PersonView }) {
  return (
    <>
      <div className="name-cell">{person.username}</div>
      <div className="muted">{[person.displayName, person.email].filter(Boolean).join(" · ")}</div>
    </>
  );
}

function RoleCell({ person, canEdit, writes }: CellProps) {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const update = writes.updatePerson;
  return (
    <>
      {canEdit ? (
        <select
          className="control-small"
          aria-label={t("directRole")}
          value={person.directRole ?? ""}
          onChange={(e) =>
            update.mutate({
              id: person.id,
              role:
                e.target.value === "" ? null : (e.target.value as (typeof ROLE_CHOICES)[number]),
            })
          }
        >
          <option value="">{t("noDirectRole")}</option>
          {ROLE_CHOICES.map((role) => (
            <option key={role} value={role}>
              {tc(`roles.${role}`)}
            </option>
          ))}
        </select>
      ) : (
        ((person.directRole && tc(`roles.${person.directRole}`)) ?? t("noDirectRole"))
      )}
      <div className="muted">
        {person.role ? t("effective", { role: tc(`roles.${person.role}`) }) : t("noRole")}
      </div>
    </>
  );
}

function StateCell({
  person,
  canEdit,
  writes,
  onRemove,
}: CellProps & { onRemove(person: PersonView): void }) {
  const { t } = useTranslation("people");
  if (!canEdit) return person.isActive ? t("active") : t("disabled");
  return (
    <div className="row-actions">
      <button
        type="button"
        className="control control-small"
        data-testid="person-toggle-active"
        onClick={() => writes.updatePerson.mutate({ id: person.id, isActive: !person.isActive })}
      >
        {person.isActive ? t("disable") : t("enable")}
      </button>
      <button
        type="button"
        className="control control-small"
        data-testid="person-sign-out"
        disabled={writes.signOut.isPending}
        title={t("signOutHint")}
        onClick={() => writes.signOut.mutate({ id: person.id })}
      >
        {t("signOut")}
      </button>
      <button
        type="button"
        className="control control-small control-danger"
        data-testid="person-remove"
        onClick={() => onRemove(person)}
      >
        {t("remove")}
      </button>
    </div>
  );
}

function usePeopleColumns(
  canEdit: boolean,
  writes: IdentityWrites,
  onRemove: (person: PersonView) => void,
): GridColumn<PersonView>[] {
  const { t, i18n } = useTranslation("people");
  const { t: tc } = useTranslation();
  const header = (column: PeopleColumn) => ({
    id: column,
    header: t(`columns.${column}`),
  });
  return [
    { ...header("person"), render: (person) => <PersonCell person={person} /> },
    {
      ...header("role"),
      render: (person) => <RoleCell person={person} canEdit={canEdit} writes={writes} />,
      cellProps: () => ({ "data-testid": "person-role" }),
    },
    { ...header("sourceColumn"), render: (person) => t(`source.${person.source}`) },
    {
      ...header("groups"),
      render: (person) => person.groups.join(", ") || tc("none"),
      cellProps: () => ({ className: "col-wrap" }),
    },
    {
      ...header("grants"),
      render: (person) =>
        person.grants
          .filter((g) => g.scope !== "*")
          .map((g) => `${tc(`roles.${g.role}`)} @ ${g.scope}`)
          .join(", ") || tc("none"),
      cellProps: () => ({ className: "col-wrap", "data-testid": "person-grants" }),
    },
    {
      ...header("lastSignIn"),
      render: (person) =>
        person.lastSignInAt ? formatDateTime(person.lastSignInAt, i18n.language) : t("never"),
    },
    {
      ...header("state"),
      render: (person) => (
        <StateCell person={person} canEdit={canEdit} writes={writes} onRemove={onRemove} />
      ),
    },
  ];
}

export function PeopleSection({
  people,
  isLoading,
  canEdit,
  isReadOnly,
  writes,
}: {
  people: PersonView[];
  isLoading: boolean;
  canEdit: boolean;
  /** Known to be someone who may not change identity (not merely still loading who they are). */
  isReadOnly: boolean;
  writes: IdentityWrites;
}) {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const [isAdding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PersonView | null>(null);
  const columns = usePeopleColumns(canEdit, writes, setRemoving);
  const signedOut = writes.signOut.isSuccess ? writes.signOut : null;
  const signedOutName = people.find((p) => p.id === signedOut?.variables.id)?.username ?? "";
  return (
    <>
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <span className="muted" data-testid="people-count">
          {isLoading ? tc("loading") : t("count", { count: people.length })}
        </span>
        {signedOut ? (
          <span className="status status-live" data-testid="person-signed-out">
            {t("signedOut", { username: signedOutName, count: signedOut.data.ended })}
          </span>
        ) : null}
        <div className="top-bar-spacer" />
        {isReadOnly ? (
          <span className="muted" data-testid="people-read-only">
            {t("readOnly")}
          </span>
        ) : null}
        {canEdit ? (
          <button
            type="button"
            className="primary"
            onClick={() => {
              writes.createPerson.reset();
              setAdding(true);
            }}
            data-testid="add-person"
          >
            {t("add.open")}
          </button>
        ) : null}
      </div>
      <FormError
        error={latestError([writes.updatePerson, writes.removePerson, writes.signOut])}
        testId="people-error"
      />
      <div className="table-scroll">
        <DataGrid
          columns={columns}
          rows={people}
          rowKey={(person) => person.id}
          rowProps={(person) => ({ "data-testid": "person-row", "data-username": person.username })}
          testId="people-table"
        />
      </div>
      {isAdding ? <AddPersonDialog writes={writes} onClose={() => setAdding(false)} /> : null}
      {removing ? (
        <ConfirmDialog
          title={t("removeConfirm.title", { username: removing.username })}
          body={t("removeConfirm.body", { username: removing.username })}
          confirmLabel={t("removeConfirm.ok")}
          cancelLabel={t("cancel")}
          isBusy={writes.removePerson.isPending}
          testId="person-remove-confirm"
          onConfirm={() => {
            writes.removePerson.mutate({ id: removing.id });
            setRemoving(null);
          }}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </>
  );
}
