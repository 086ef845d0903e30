"use client";
// Adds a peer cluster: its name, its base address, the API key the peer issued for this cluster
// (typed into a password box, sent once, kept sealed by the control plane and never shown again)
// and whether the caller's attribution goes along. Checked with the control plane's own schema;
// kept apart from the request so a test renders it with a refusal.
import { federationAddInputSchema, type FederationAddInput } from "@llmgw/api/schemas";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../ui/form-field";
import { SubmitForm } from "../ui/submit-form";

export interface PeerDraft {
  name: string;
  url: string;
  key: string;
  sendsTags: boolean;
}

export function peerInput(draft: PeerDraft): FederationAddInput {
  return {
    name: draft.name.trim(),
    url: draft.url.trim(),
    key: draft.key.trim(),
    sendsTags: draft.sendsTags,
  };
}

export interface AddPeerFormProps {
  send(input: FederationAddInput): void;
  onClose(): void;
  error: unknown;
  isPending: boolean;
}

export function AddPeerForm({ send, onClose, error, isPending }: AddPeerFormProps) {
  const { t } = useTranslation("federation");
  const [draft, setDraft] = useState<PeerDraft>({ name: "", url: "", key: "", sendsTags: false });
  const text = (field: "name" | "url" | "key") => (event: { target: { value: string } }) =>
    setDraft((previous) => ({ ...previous, [field]: event.target.value }));
  return (
    <SubmitForm
      className="panel"
      testId="federation-add-form"
      schema={federationAddInputSchema}
      readInput={() => peerInput(draft)}
      onSubmit={send}
      error={error}
      errorTestId="federation-add-error"
      actions={{
        submitLabel: t("add.submit"),
        submitTestId: "federation-add-submit",
        isPending,
        cancelLabel: t("add.cancel"),
        onCancel: onClose,
      }}
    >
      <h2>{t("add.title")}</h2>
      <FormField label={t("add.name")} hint={t("add.nameHint")}>
        <input value={draft.name} onChange={text("name")} data-testid="federation-add-name" />
      </FormField>
      <FormField label={t("add.url")} hint={t("add.urlHint")}>
        <input
          value={draft.url}
          placeholder={t("add.urlPlaceholder")}
          onChange={text("url")}
          data-testid="federation-add-url"
        />
      </FormField>
      <FormField label={t("add.key")} hint={t("add.keyHint")}>
        <input
          type="password"
          autoComplete="off"
          value={draft.key}
          onChange={text("key")}
          data-testid="federation-add-key"
        />
      </FormField>
      <label className="inline-field">
        <input
          type="checkbox"
          checked={draft.sendsTags}
          onChange={(event) =>
            setDraft((previous) => ({ ...previous, sendsTags: event.target.checked }))
          }
          data-testid="federation-add-send-tags"
        />
        <span>{t("add.sendsTags")}</span>
      </label>
    </SubmitForm>
  );
}
