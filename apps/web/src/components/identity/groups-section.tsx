"use client";
// Groups with their members and the roles they carry. An admin creates and removes local groups and
// picks their members from the people list. Groups an AD or SCIM directory fills are marked as
// such and left alone here: the directory would undo any change at the next sign-in or push.
import type { GroupView, PersonView } from "@llmgw/api";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../confirm-dialog";
import { DataGrid, type GridColumn } from "../ui/data-grid";
import { FormError } from "../ui/form-error";
import { isDirectoryGroup, latestError, type IdentityWrites } from "./use-identity-writes";

interface GroupsSectionProps {
  groups: GroupView[];
  people: PersonView[];
  canEdit: boolean;
  writes: IdentityWrites;
}

function CreateGroupForm({ writes }: { writes: IdentityWrites }) {
  const { t } = useTranslation("people");
  const [name, setName] = useState("");
  return (
    <form
      className="mcp-inline-form"
      data-testid="group-create-form"
      onSubmit={(event) => {
        event.preventDefault();
        writes.createGroup.mutate({ name: name.trim() }, { onSuccess: () => setName("") });
      }}
    >
      <input
        value={name}
        placeholder={t("groups.namePlaceholder")}
        aria-label={t("groups.name")}
        onChange={(e) => setName(e.target.value)}
        data-testid="group-name"
      />
      <button
        type="submit"
        className="control"
        disabled={writes.createGroup.isPending || name.trim() === ""}
        data-testid="group-create-submit"
      >
        {t("groups.create")}
      </button>
    </form>
  );
}

function AddMember({
  group,
  people,
  writes,
}: {
  group: GroupView;
  people: PersonView[];
  writes: IdentityWrites;
}) {
  const { t } = useTranslation("people");
  const [username, setUsername] = useState("");
  const candidates = people.filter((p) => !group.members.includes(p.username));
  if (candidates.length === 0) return null;
  return (
    <span className="inline-field">
      <select
        className="control-small"
        value={username}
        aria-label={t("groups.pickPerson")}
        onChange={(e) => setUsername(e.target.value)}
        data-testid="group-member-pick"
      >
        <option value="">{t("groups.pickPerson")}</option>
        {candidates.map((p) => (
          <option key={p.id} value={p.username}>
            {p.username}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="control control-small"
        disabled={username === "" || writes.addMember.isPending}
        onClick={() =>
          writes.addMember.mutate(
            { group: group.name, username },
            { onSuccess: () => setUsername("") },
          )
        }
        data-testid="group-member-add"
      >
        {t("groups.addMember")}
      </button>
    </span>
  );
}

type GroupCellProps = Omit<GroupsSectionProps, "groups"> & { group: GroupView };

function GroupCell({ group }: { group: GroupView }) {
  return (
    <>
      <div className="name-cell">{group.name}</div>
      {group.externalId ? (
        <div className="muted">
          <span className="truncate uuid" title={group.externalId}>
            {group.externalId}
          </span>
        </div>
      ) : null}
    </>
  );
}

function SourceCell({ group }: { group: GroupView }) {
  const { t } = useTranslation("people");
  return (
    <>
      {t(`source.${group.source}`)}
      {isDirectoryGroup(group.source) ? (
        <div className="muted" data-testid="group-managed">
          {t("groups.managed")}
        </div>
      ) : null}
    </>
  );
}

function MembersCell({ group, people, canEdit, writes }: GroupCellProps) {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const isEditable = canEdit && !isDirectoryGroup(group.source);
  return (
    <>
      {group.members.length === 0 ? <span className="muted">{tc("none")}</span> : null}
      <span className="chips chips-wrap">
        {group.members.map((member) => (
          <span key={member} className="chip" data-testid="group-member" data-username={member}>
            {member}
            {isEditable ? (
              <button
                type="button"
                className="link-button chip-remove"
                aria-label={t("groups.removeMember", { username: member })}
                title={t("groups.removeMember", { username: member })}
                disabled={writes.removeMember.isPending}
                onClick={() => writes.removeMember.mutate({ group: group.name, username: member })}
                data-testid="group-member-remove"
              >
                {t("groups.removeMark")}
              </button>
            ) : null}
          </span>
        ))}
      </span>
      {isEditable ? (
        <div>
          <AddMember group={group} people={people} writes={writes} />
        </div>
      ) : null}
    </>
  );
}

function useGroupColumns(
  { people, canEdit, writes }: Omit<GroupsSectionProps, "groups">,
  onRemove: (group: GroupView) => void,
): GridColumn<GroupView>[] {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const columns: GridColumn<GroupView>[] = [
    { id: "group", header: t("columns.group"), render: (group) => <GroupCell group={group} /> },
    {
      id: "source",
      header: t("columns.sourceColumn"),
      render: (group) => <SourceCell group={group} />,
    },
    {
      id: "members",
      header: t("columns.members"),
      render: (group) => (
        <MembersCell group={group} people={people} canEdit={canEdit} writes={writes} />
      ),
      cellProps: () => ({ "data-testid": "group-members" }),
    },
    {
      id: "roles",
      header: t("columns.roles"),
      render: (group) =>
        group.grants
          .map((g) => `${tc(`roles.${g.role}`)} @ ${g.scope === "*" ? t("cluster") : g.scope}`)
          .join(", ") || tc("none"),
      cellProps: () => ({ className: "col-wrap", "data-testid": "group-roles" }),
    },
  ];
  if (!canEdit) return columns;
  const actions: GridColumn<GroupView> = {
    id: "actions",
    header: t("columns.actions"),
    render: (group) =>
      isDirectoryGroup(group.source) ? null : (
        <button
          type="button"
          className="control control-small control-danger"
          onClick={() => onRemove(group)}
          data-testid="group-remove"
        >
          {t("remove")}
        </button>
      ),
    cellProps: () => ({ className: "col-actions" }),
  };
  return [...columns, actions];
}

export function GroupsSection({ groups, people, canEdit, writes }: GroupsSectionProps) {
  const { t } = useTranslation("people");
  const [removing, setRemoving] = useState<GroupView | null>(null);
  const columns = useGroupColumns({ people, canEdit, writes }, setRemoving);
  return (
    <>
      <div className="toolbar">
        <h2>{t("groupsTitle")}</h2>
        {canEdit ? <CreateGroupForm writes={writes} /> : null}
      </div>
      <FormError
        error={latestError([
          writes.createGroup,
          writes.removeGroup,
          writes.addMember,
          writes.removeMember,
        ])}
        testId="groups-error"
      />
      <div className="table-scroll">
        <DataGrid
          columns={columns}
          rows={groups}
          rowKey={(group) => group.id}
          rowProps={(group) => ({
            "data-testid": "group-row",
            "data-group": group.name,
            "data-source": group.source,
          })}
          testId="groups-table"
        />
      </div>
      {groups.length === 0 ? <p className="muted">{t("groups.empty")}</p> : null}
      {removing ? (
        <ConfirmDialog
          title={t("groups.removeConfirm.title", { name: removing.name })}
          body={t("groups.removeConfirm.body", { name: removing.name })}
          confirmLabel={t("groups.removeConfirm.ok")}
          cancelLabel={t("cancel")}
          isBusy={writes.removeGroup.isPending}
          testId="group-remove-confirm"
          onConfirm={() => {
            writes.removeGroup.mutate({ id: removing.id });
            setRemoving(null);
          }}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </>
  );
}
