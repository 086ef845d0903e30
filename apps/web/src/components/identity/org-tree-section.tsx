"use client";
// The org → team → project tree that keys, models and grants hang from. An admin adds an org, a
// team under an org or a project under a team, and removes a unit; the control plane refuses to
// remove one that still holds others, and that refusal is shown as it came.
import type { OrgUnitView } from "@llmgw/api";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../confirm-dialog";
import { FormError } from "../ui/form-error";
import { latestError, type IdentityWrites } from "./use-identity-writes";

type Kind = OrgUnitView["kind"];
const KINDS: readonly Kind[] = ["org", "team", "project"];
const PARENT_KIND: Record<Kind, Kind | null> = { org: null, team: "org", project: "team" };
const ownerOf = (unit: OrgUnitView) => `${unit.kind}:${unit.name}`;

function CreateUnitForm({ units, writes }: { units: OrgUnitView[]; writes: IdentityWrites }) {
  const { t } = useTranslation("people");
  const [kind, setKind] = useState<Kind>("org");
  const [name, setName] = useState("");
  const [parent, setParent] = useState("");
  const parentKind = PARENT_KIND[kind];
  const parents = units.filter((u) => u.kind === parentKind);
  const submit = () =>
    writes.createUnit.mutate(
      { kind, name: name.trim(), parent: parentKind ? parent : undefined },
      { onSuccess: () => setName("") },
    );
  return (
    <form
      className="mcp-inline-form"
      data-testid="unit-create-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <select
        value={kind}
        aria-label={t("tree.kind")}
        onChange={(e) => {
          setKind(e.target.value as Kind);
          setParent("");
        }}
        data-testid="unit-kind"
      >
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {t(`tree.kinds.${k}`)}
          </option>
        ))}
      </select>
      {parentKind ? (
        <select
          value={parent}
          aria-label={t("tree.parent")}
          onChange={(e) => setParent(e.target.value)}
          data-testid="unit-parent"
        >
          <option value="">
            {t(parentKind === "org" ? "tree.pickParent.org" : "tree.pickParent.team")}
          </option>
          {parents.map((u) => (
            <option key={ownerOf(u)} value={ownerOf(u)}>
              {ownerOf(u)}
            </option>
          ))}
        </select>
      ) : null}
      <input
        value={name}
        placeholder={t("tree.namePlaceholder")}
        aria-label={t("tree.name")}
        onChange={(e) => setName(e.target.value)}
        data-testid="unit-name"
      />
      <button
        type="submit"
        className="control"
        disabled={
          writes.createUnit.isPending || name.trim() === "" || (parentKind !== null && !parent)
        }
        data-testid="unit-create-submit"
      >
        {t("tree.add")}
      </button>
    </form>
  );
}

interface BranchProps {
  unit: OrgUnitView;
  units: OrgUnitView[];
  canEdit: boolean;
  onRemove(owner: string): void;
}

function Branch({ unit, units, canEdit, onRemove }: BranchProps) {
  const { t } = useTranslation("people");
  const owner = ownerOf(unit);
  const children = units.filter((u) => u.parent === owner);
  return (
    <li data-testid="org-unit" data-owner={owner}>
      <span className="tree-node">
        <span className="muted">{t(`tree.kinds.${unit.kind}`)}</span>
        <span className="name-cell">{unit.name}</span>
        {canEdit ? (
          <button
            type="button"
            className="control control-small control-danger"
            onClick={() => onRemove(owner)}
            data-testid="org-unit-remove"
          >
            {t("remove")}
          </button>
        ) : null}
      </span>
      {children.length > 0 ? (
        <ul className="tree">
          {children.map((child) => (
            <Branch
              key={ownerOf(child)}
              unit={child}
              units={units}
              canEdit={canEdit}
              onRemove={onRemove}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function OrgTreeSection({
  units,
  canEdit,
  writes,
}: {
  units: OrgUnitView[];
  canEdit: boolean;
  writes: IdentityWrites;
}) {
  const { t } = useTranslation("people");
  const [removing, setRemoving] = useState<string | null>(null);
  const owners = new Set(units.map(ownerOf));
  // Roots: the orgs, plus any unit whose parent is gone, so nothing in the store is hidden.
  const roots = units.filter((u) => u.parent === null || !owners.has(u.parent));
  return (
    <>
      <div className="toolbar">
        <h2>{t("treeTitle")}</h2>
        {canEdit ? <CreateUnitForm units={units} writes={writes} /> : null}
      </div>
      <FormError error={latestError([writes.createUnit, writes.removeUnit])} testId="org-error" />
      {units.length === 0 ? (
        <p className="muted">{canEdit ? t("tree.emptyAdmin") : t("treeEmpty")}</p>
      ) : (
        <ul className="tree panel" data-testid="org-tree">
          {roots.map((unit) => (
            <Branch
              key={ownerOf(unit)}
              unit={unit}
              units={units}
              canEdit={canEdit}
              onRemove={setRemoving}
            />
          ))}
        </ul>
      )}
      {removing ? (
        <ConfirmDialog
          title={t("tree.removeConfirm.title", { owner: removing })}
          body={t("tree.removeConfirm.body", { owner: removing })}
          confirmLabel={t("tree.removeConfirm.ok")}
          cancelLabel={t("cancel")}
          isBusy={writes.removeUnit.isPending}
          testId="org-unit-remove-confirm"
          onConfirm={() => {
            writes.removeUnit.mutate({ owner: removing });
            setRemoving(null);
          }}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </>
  );
}
