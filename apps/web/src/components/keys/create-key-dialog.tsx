"use client";
// "Create key": owner (the person by default, with the known owners offered), models, limits and
// expiry, checked by the same zod schema the control plane uses; a limit that is not a whole
// number is named before anything is sent. On success the dialog turns into the one place the
// plaintext key is ever shown.
import type { CreatedKey } from "@llmgw/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useEscape } from "../../hooks/use-escape";
import { describeError, trpcErrorDetails } from "../../lib/errors";
import { badKeyNumbers, keyInput, knownKeyOwners, type KeyFormState } from "../../lib/forms";
import { useTRPC } from "../../trpc/react";
import { CreatedKeyPanel } from "./created-key-panel";

const EXPIRY_DAYS = [0, 1, 7, 30, 90, 365] as const;

function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <label className="form-field">
      <span>{label}</span>
      {children}
      {hint ? <span className="muted form-hint">{hint}</span> : null}
    </label>
  );
}

function KeyForm({ onCreated, onClose }: { onCreated(key: CreatedKey): void; onClose(): void }) {
  const { t } = useTranslation("keys");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<KeyFormState>({
    owner: "",
    models: "*",
    rpm: "",
    tpm: "",
    concurrent: "",
    expiresDays: 0,
  });
  const me = useQuery(trpc.auth.me.queryOptions());
  const units = useQuery(trpc.org.list.queryOptions());
  const keys = useQuery(trpc.keys.list.queryOptions());
  const owners = knownKeyOwners(me.data?.username ?? null, units.data ?? [], keys.data ?? []);
  const [ownerTouched, setOwnerTouched] = useState(false);
  // The person's own key is the common case: their name fills the box until they type another.
  const myName = me.data?.username;
  useEffect(() => {
    if (myName && !ownerTouched) setForm((previous) => ({ ...previous, owner: `user:${myName}` }));
  }, [myName, ownerTouched]);
  const [badNumbers, setBadNumbers] = useState<ReturnType<typeof badKeyNumbers>>([]);
  const create = useMutation(
    trpc.keys.create.mutationOptions({
      onSuccess: async (created) => {
        onCreated(created);
        await queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() });
      },
    }),
  );
  const set = (field: keyof KeyFormState) => (event: { target: { value: string } }) =>
    setForm((previous) => ({ ...previous, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const bad = badKeyNumbers(form);
    setBadNumbers(bad);
    if (bad.length === 0) create.mutate(keyInput(form));
  };
  const details = create.isError ? trpcErrorDetails(create.error) : [];
  return (
    <form className="key-form" onSubmit={submit}>
      <Field label={t("form.owner")} hint={t("form.ownerHint")}>
        <input
          value={form.owner}
          onChange={(event) => {
            setOwnerTouched(true);
            set("owner")(event);
          }}
          list="key-owner-options"
          data-testid="key-owner"
          autoFocus
          required
        />
        <datalist id="key-owner-options" data-testid="key-owner-options">
          {owners.map((owner) => (
            <option key={owner} value={owner} />
          ))}
        </datalist>
      </Field>
      <Field label={t("form.models")} hint={t("form.modelsHint")}>
        <input value={form.models} onChange={set("models")} data-testid="key-models" required />
      </Field>
      <div className="form-row">
        <Field label={t("form.rpm")}>
          <input
            inputMode="numeric"
            value={form.rpm}
            onChange={set("rpm")}
            placeholder={t("form.unlimited")}
            data-testid="key-rpm"
          />
        </Field>
        <Field label={t("form.tpm")}>
          <input
            inputMode="numeric"
            value={form.tpm}
            onChange={set("tpm")}
            placeholder={t("form.unlimited")}
            data-testid="key-tpm"
          />
        </Field>
        <Field label={t("form.concurrent")}>
          <input
            inputMode="numeric"
            value={form.concurrent}
            onChange={set("concurrent")}
            placeholder={t("form.unlimited")}
            data-testid="key-concurrent"
          />
        </Field>
      </div>
      <Field label={t("form.expires")}>
        <select
          value={form.expiresDays}
          onChange={(event) =>
            setForm((previous) => ({ ...previous, expiresDays: Number(event.target.value) }))
          }
          data-testid="key-expires"
        >
          {EXPIRY_DAYS.map((days) => (
            <option key={days} value={days}>
              {days === 0 ? t("form.expiresNever") : t("form.expiresIn", { count: days })}
            </option>
          ))}
        </select>
      </Field>
      {badNumbers.length > 0 ? (
        <div className="panel panel-error" role="alert" data-testid="key-number-error">
          {badNumbers.map((field) => (
            <p key={field}>{t("form.badNumber", { field: t(`form.${field}`) })}</p>
          ))}
        </div>
      ) : null}
      {create.isError ? (
        <div className="panel panel-error" role="alert" data-testid="key-create-error">
          <p>{t("form.refused")}</p>
          {details.length > 0 ? (
            <ul>
              {details.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : (
            <p>{describeError(create.error, tc)}</p>
          )}
        </div>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="control" onClick={onClose}>
          {t("form.cancel")}
        </button>
        <button
          type="submit"
          className="primary"
          disabled={create.isPending}
          data-testid="key-create-submit"
        >
          {t("form.submit")}
        </button>
      </div>
    </form>
  );
}

export function CreateKeyDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation("keys");
  const [created, setCreated] = useState<CreatedKey | null>(null);
  // Escape must not dismiss the only view of a new key by accident; "I have stored it" does.
  useEscape(created ? () => undefined : onClose);
  return (
    <div className="overlay" role="presentation" onClick={created ? undefined : onClose}>
      <div
        className="dialog dialog-wide"
        role="dialog"
        aria-modal="true"
        aria-labelledby="create-key-title"
        data-testid="create-key-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <header className="dialog-header">
          <h2 id="create-key-title">
            {created ? t("created.title", { owner: created.view.owner }) : t("form.title")}
          </h2>
        </header>
        {created ? (
          <CreatedKeyPanel created={created} onDone={onClose} />
        ) : (
          <KeyForm onCreated={setCreated} onClose={onClose} />
        )}
      </div>
    </div>
  );
}
