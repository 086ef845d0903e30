"use client";
// People: everyone who may sign in (local, Entra ID, SCIM), their roles, groups and grants; the
// groups with the roles they carry; and the org → team → project tree. Admins change these from
// the CLI or here (role and enable/disable); everyone signed in may look.
import type { PersonView } from "@llmgw/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../trpc/react";
import { ErrorPanel } from "../error-panel";

const ROLE_CHOICES = ["admin", "operator", "viewer"] as const;
const PEOPLE_COLUMNS = [
  "person",
  "role",
  "sourceColumn",
  "groups",
  "grants",
  "lastSignIn",
  "state",
] as const;

function PersonRow({ person, canEdit }: { person: PersonView; canEdit: boolean }) {
  const { t, i18n } = useTranslation("people");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(
    trpc.people.update.mutationOptions({
      onSettled: () =>
        void queryClient.invalidateQueries({ queryKey: trpc.people.list.queryKey() }),
    }),
  );
  return (
    <tr data-testid="person-row" data-username={person.username}>
      <td>
        <div className="name-cell">{person.username}</div>
        <div className="muted">{person.displayName}</div>
      </td>
      <td data-testid="person-role">
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
      </td>
      <td>{t(`source.${person.source}`)}</td>
      <td>{person.groups.join(", ") || tc("none")}</td>
      <td>
        {person.grants
          .filter((g) => g.scope !== "*")
          .map((g) => `${tc(`roles.${g.role}`)} @ ${g.scope}`)
          .join(", ") || tc("none")}
      </td>
      <td>
        {person.lastSignInAt ? formatDateTime(person.lastSignInAt, i18n.language) : t("never")}
      </td>
      <td>
        {canEdit ? (
          <button
            type="button"
            className="control-small"
            data-testid="person-toggle-active"
            onClick={() => update.mutate({ id: person.id, isActive: !person.isActive })}
          >
            {person.isActive ? t("disable") : t("enable")}
          </button>
        ) : person.isActive ? (
          t("active")
        ) : (
          t("disabled")
        )}
        {update.error ? <div className="action-error">{update.error.message}</div> : null}
      </td>
    </tr>
  );
}

export function PeoplePage() {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions());
  const people = useQuery(trpc.people.list.queryOptions());
  const groups = useQuery(trpc.groups.list.queryOptions());
  const units = useQuery(trpc.org.list.queryOptions());
  const canEdit = me.data?.role === "admin";
  if (people.isError)
    return <ErrorPanel error={people.error} onRetry={() => void people.refetch()} />;
  return (
    <section className="page" data-testid="people-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <span className="muted" data-testid="people-count">
          {people.data ? t("count", { count: people.data.length }) : tc("loading")}
        </span>
      </div>
      <div className="table-scroll">
        <table className="grid" data-testid="people-table">
          <thead>
            <tr>
              {PEOPLE_COLUMNS.map((c) => (
                <th key={c}>{t(`columns.${c}`)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(people.data ?? []).map((person) => (
              <PersonRow key={person.id} person={person} canEdit={canEdit} />
            ))}
          </tbody>
        </table>
      </div>
      <h2>{t("groupsTitle")}</h2>
      <table className="grid" data-testid="groups-table">
        <thead>
          <tr>
            <th>{t("columns.group")}</th>
            <th>{t("columns.sourceColumn")}</th>
            <th>{t("columns.members")}</th>
            <th>{t("columns.roles")}</th>
          </tr>
        </thead>
        <tbody>
          {(groups.data ?? []).map((group) => (
            <tr key={group.id} data-testid="group-row" data-group={group.name}>
              <td>
                <div className="name-cell">{group.name}</div>
                {group.externalId ? <div className="muted uuid">{group.externalId}</div> : null}
              </td>
              <td>{t(`source.${group.source}`)}</td>
              <td>{group.members.join(", ") || tc("none")}</td>
              <td>
                {group.grants
                  .map(
                    (g) => `${tc(`roles.${g.role}`)} @ ${g.scope === "*" ? t("cluster") : g.scope}`,
                  )
                  .join(", ") || tc("none")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t("treeTitle")}</h2>
      <ul className="facts" data-testid="org-tree">
        {(units.data ?? []).map((unit) => (
          <li key={`${unit.kind}:${unit.name}`}>
            {`${unit.kind}:${unit.name}`}
            {unit.parent ? <span className="muted">{` ← ${unit.parent}`}</span> : null}
          </li>
        ))}
      </ul>
      {units.data?.length === 0 ? <p className="muted">{t("treeEmpty")}</p> : null}
    </section>
  );
}
