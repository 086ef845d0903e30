"use client";
// "Create key": owner (the person by default, with the known owners offered), models, limits,
// expiry and whether its requests stay in this cluster, checked by the same zod schema the control plane uses; a limit that is not a whole
// number is named before anything is sent. On success the dialog turns into the one place the
// plaintext key is ever shown.
import type { CreatedKey } from "@llmgw/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  badKeyNumbers,
  KEY_NUMBER_FIELDS,
  keyInput,
  knownKeyOwners,
  type KeyFormState,
} from "../../lib/forms";
import { useTRPC } from "../../trpc/react";
import { Dialog } from "../ui/dialog";
import { FormField } from "../ui/form-field";
import { SubmitForm } from "../ui/submit-form";
import { CreatedKeyPanel } from "./created-key-panel";

const EXPIRY_DAYS = [0, 1, 7, 30, 90, 365] as const;

function KeyForm({ onCreated, onClose }: { onCreated(key: CreatedKey): void; onClose(): void }) {
  const { t } = useTranslation("keys");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<KeyFormState>({
    owner: "",
    models: "*",
    rpm: "",
    tpm: "",
    concurrent: "",
    expiresDays: 0,
    staysLocal: false,
    noStore: false,
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
  // A limit that is not a whole number is named in the form's words before anything is sent.
  const submit = (typed: KeyFormState) => {
    const bad = badKeyNumbers(typed);
    setBadNumbers(bad);
    if (bad.length === 0) create.mutate(keyInput(typed));
  };
  return (
    <SubmitForm
      className="key-form"
      readInput={() => form}
      onSubmit={submit}
      error={create.error}
      errorTestId="key-create-error"
      errorHeading={t("form.refused")}
      errorClassName="panel panel-error"
      errorListsDetails
      actions={{
        submitLabel: t("form.submit"),
        submitTestId: "key-create-submit",
        isPending: create.isPending,
        cancelLabel: t("form.cancel"),
        onCancel: onClose,
      }}
    >
      <FormField label={t("form.owner")} hint={t("form.ownerHint")}>
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
      </FormField>
      <datalist id="key-owner-options" data-testid="key-owner-options">
        {owners.map((owner) => (
          <option key={owner} value={owner} />
        ))}
      </datalist>
      <FormField label={t("form.models")} hint={t("form.modelsHint")}>
        <input value={form.models} onChange={set("models")} data-testid="key-models" required />
      </FormField>
      <div className="form-row">
        {KEY_NUMBER_FIELDS.map((field) => (
          <FormField key={field} label={t(`form.${field}`)}>
            <input
              inputMode="numeric"
              value={form[field]}
              onChange={set(field)}
              placeholder={t("form.unlimited")}
              data-testid={`key-${field}`}
            />
          </FormField>
        ))}
      </div>
      <FormField label={t("form.expires")}>
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
      </FormField>
      {(["staysLocal", "noStore"] as const).map((flag) => (
        <label key={flag} className="inline-field">
          <input
            type="checkbox"
            checked={form[flag]}
            onChange={(event) =>
              setForm((previous) => ({ ...previous, [flag]: event.target.checked }))
            }
            data-testid={`key-${flag}`}
          />
          <span>{t(`form.${flag}`)}</span>
        </label>
      ))}
      {badNumbers.length > 0 ? (
        <div className="panel panel-error" role="alert" data-testid="key-number-error">
          {badNumbers.map((field) => (
            <p key={field}>{t("form.badNumber", { field: t(`form.${field}`) })}</p>
          ))}
        </div>
      ) : null}
    </SubmitForm>
  );
}

export function CreateKeyDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation("keys");
  const [created, setCreated] = useState<CreatedKey | null>(null);
  return (
    <Dialog
      testId="create-key-dialog"
      title={created ? t("created.title", { owner: created.view.owner }) : t("form.title")}
      // Escape or a click outside must not dismiss the only view of a new key; "I have stored it" does.
      isDismissable={!created}
      onClose={onClose}
    >
      {created ? (
        <CreatedKeyPanel created={created} onDone={onClose} />
      ) : (
        <KeyForm onCreated={setCreated} onClose={onClose} />
      )}
    </Dialog>
  );
}
