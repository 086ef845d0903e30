"use client";
// "Add person": a local account (username, display name, email, role). The control plane stores
// only a hash of the password, so the console makes one (unless the admin typed one) and shows it
// once, with a copy button, like a new API key.
import type { PersonView } from "@llmgw/api";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useEscape } from "../../hooks/use-escape";
import { ShownOnce } from "../shown-once";
import { ActionError } from "./action-error";
import type { IdentityWrites } from "./use-identity-writes";

const ROLES = ["viewer", "operator", "admin"] as const;
type Role = (typeof ROLES)[number];

/** 20 characters of base64url from 15 random bytes: 120 bits, easy to paste, no padding. */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(15));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
}

interface Created {
  person: PersonView;
  password: string;
}

function PersonForm({
  writes,
  onCreated,
  onClose,
}: {
  writes: IdentityWrites;
  onCreated(created: Created): void;
  onClose(): void;
}) {
  const { t } = useTranslation("people");
  const { t: tc } = useTranslation();
  const [username, setUsername] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [password, setPassword] = useState("");
  const create = writes.createPerson;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const initial = password === "" ? generatePassword() : password;
    create.mutate(
      {
        username: username.trim(),
        displayName: displayName.trim() || undefined,
        email: email.trim() || undefined,
        role,
        password: initial,
      },
      { onSuccess: (person) => onCreated({ person, password: initial }) },
    );
  };
  return (
    <form className="key-form" onSubmit={submit} data-testid="add-person-form">
      <div className="form-row">
        <label className="form-field">
          <span>{t("add.username")}</span>
          <input
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            data-testid="person-username"
            autoFocus
            required
          />
        </label>
        <label className="form-field">
          <span>{t("add.displayName")}</span>
          <input
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            data-testid="person-display-name"
          />
        </label>
      </div>
      <div className="form-row">
        <label className="form-field">
          <span>{t("add.email")}</span>
          <input
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="person-email"
          />
        </label>
        <label className="form-field">
          <span>{t("add.role")}</span>
          <select
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            data-testid="person-new-role"
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {tc(`roles.${r}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="form-field">
        <span>{t("add.password")}</span>
        <input
          type="password"
          autoComplete="new-password"
          value={password}
          placeholder={t("add.passwordPlaceholder")}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="person-password"
        />
        <span className="muted form-hint">{t("add.passwordHint")}</span>
      </label>
      <ActionError error={create.error} testId="add-person-error" />
      <div className="dialog-actions">
        <button type="button" className="control" onClick={onClose}>
          {t("add.cancel")}
        </button>
        <button
          type="submit"
          className="primary"
          disabled={create.isPending || username.trim() === ""}
          data-testid="add-person-submit"
        >
          {t("add.submit")}
        </button>
      </div>
    </form>
  );
}

function CreatedPassword({ created, onDone }: { created: Created; onDone(): void }) {
  const { t } = useTranslation("people");
  return (
    <ShownOnce
      value={created.password}
      testId="created-password"
      onDone={onDone}
      labels={{
        warning: t("created.warning", { username: created.person.username }),
        copy: t("created.copy"),
        copied: t("created.copied"),
        copyFailed: t("created.copyFailed"),
        done: t("created.done"),
      }}
    />
  );
}

export function AddPersonDialog({ writes, onClose }: { writes: IdentityWrites; onClose(): void }) {
  const { t } = useTranslation("people");
  const [created, setCreated] = useState<Created | null>(null);
  // Escape must not close the only view of the password by accident; "Done" does.
  useEscape(created ? () => undefined : onClose);
  return (
    <div className="overlay" role="presentation" onClick={created ? undefined : onClose}>
      <div
        className="dialog dialog-wide"
        role="dialog"
        aria-modal="true"
        aria-labelledby="add-person-title"
        data-testid="add-person-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <header className="dialog-header">
          <h2 id="add-person-title">
            {created ? t("created.title", { username: created.person.username }) : t("add.title")}
          </h2>
        </header>
        {created ? (
          <CreatedPassword created={created} onDone={onClose} />
        ) : (
          <PersonForm writes={writes} onCreated={setCreated} onClose={onClose} />
        )}
      </div>
    </div>
  );
}
