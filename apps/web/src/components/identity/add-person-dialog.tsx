"use client";
// "Add person": a local account (username, display name, email, role). The control plane stores
// only a hash of the password, so the console makes one (unless the admin typed one) and shows it
// once, with a copy button, like a new API key.
import type { PersonView } from "@llmgw/api";
import { createPersonInputSchema, type CreatePersonInput } from "@llmgw/api/schemas";
import { must } from "@llmgw/domain";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ShownOnce } from "../shown-once";
import { Dialog } from "../ui/dialog";
import { FormField } from "../ui/form-field";
import { SubmitForm } from "../ui/submit-form";
import type { IdentityWrites } from "./use-identity-writes";

const ROLES = ["viewer", "operator", "admin"] as const;
type Role = (typeof ROLES)[number];

/** 20 characters of base64url from 15 random bytes: 120 bits, easy to paste, no padding. */
function generatePassword(): string {
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
  return (
    <SubmitForm<CreatePersonInput>
      className="key-form"
      testId="add-person-form"
      schema={createPersonInputSchema}
      readInput={() => ({
        username: username.trim(),
        displayName: displayName.trim() || undefined,
        email: email.trim() || undefined,
        role,
        password: password === "" ? generatePassword() : password,
      })}
      onSubmit={(input) =>
        create.mutate(input, {
          // readInput always sets a password (typed or generated): it is shown once.
          onSuccess: (person) =>
            onCreated({ person, password: must(input.password, "the new password") }),
        })
      }
      error={create.error}
      errorTestId="add-person-error"
      actions={{
        submitLabel: t("add.submit"),
        submitTestId: "add-person-submit",
        isPending: create.isPending,
        isSubmitDisabled: username.trim() === "",
        cancelLabel: t("add.cancel"),
        onCancel: onClose,
      }}
    >
      <div className="form-row">
        <FormField label={t("add.username")}>
          <input
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            data-testid="person-username"
            autoFocus
            required
          />
        </FormField>
        <FormField label={t("add.displayName")}>
          <input
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            data-testid="person-display-name"
          />
        </FormField>
      </div>
      <div className="form-row">
        <FormField label={t("add.email")}>
          <input
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="person-email"
          />
        </FormField>
        <FormField label={t("add.role")}>
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
        </FormField>
      </div>
      <FormField label={t("add.password")} hint={t("add.passwordHint")}>
        <input
          type="password"
          autoComplete="new-password"
          value={password}
          placeholder={t("add.passwordPlaceholder")}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="person-password"
        />
      </FormField>
    </SubmitForm>
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
  return (
    <Dialog
      testId="add-person-dialog"
      title={created ? t("created.title", { username: created.person.username }) : t("add.title")}
      // Escape or a click outside must not close the only view of the password; "Done" does.
      isDismissable={!created}
      onClose={onClose}
    >
      {created ? (
        <CreatedPassword created={created} onDone={onClose} />
      ) : (
        <PersonForm writes={writes} onCreated={setCreated} onClose={onClose} />
      )}
    </Dialog>
  );
}
