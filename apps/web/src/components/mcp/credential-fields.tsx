"use client";
// A credential typed into the page: a bearer token, or another header with its name. The value
// goes to the control plane once, is sealed there, and is never shown again.
import { useTranslation } from "react-i18next";
import { FormField } from "../ui/form-field";

export interface CredentialDraft {
  kind: "none" | "bearer" | "header";
  headerName: string;
  secret: string;
}

export const EMPTY_CREDENTIAL: CredentialDraft = { kind: "bearer", headerName: "", secret: "" };

export function credentialInput(draft: CredentialDraft) {
  if (draft.kind === "none" || draft.secret === "") return undefined;
  return draft.kind === "bearer"
    ? { bearer: draft.secret }
    : { secretHeader: { name: draft.headerName.trim(), value: draft.secret } };
}

export function CredentialFields({
  draft,
  onChange,
  testPrefix,
  allowNone,
}: {
  draft: CredentialDraft;
  onChange(next: CredentialDraft): void;
  testPrefix: string;
  allowNone: boolean;
}) {
  const { t } = useTranslation("mcp");
  return (
    <>
      <FormField className="field" label={t("credential.kind")}>
        <select
          className="control"
          value={draft.kind}
          onChange={(e) => onChange({ ...draft, kind: e.target.value as CredentialDraft["kind"] })}
          data-testid={`${testPrefix}-credential-kind`}
        >
          {allowNone ? <option value="none">{t("credential.none")}</option> : null}
          <option value="bearer">{t("credential.bearer")}</option>
          <option value="header">{t("credential.header")}</option>
        </select>
      </FormField>
      {draft.kind === "header" ? (
        <FormField className="field" label={t("credential.headerName")}>
          <input
            value={draft.headerName}
            placeholder={t("credential.headerNamePlaceholder")}
            onChange={(e) => onChange({ ...draft, headerName: e.target.value })}
            data-testid={`${testPrefix}-header-name`}
          />
        </FormField>
      ) : null}
      {draft.kind !== "none" ? (
        <FormField className="field" label={t("credential.secret")}>
          <input
            type="password"
            autoComplete="off"
            value={draft.secret}
            onChange={(e) => onChange({ ...draft, secret: e.target.value })}
            data-testid={`${testPrefix}-secret`}
          />
        </FormField>
      ) : null}
    </>
  );
}
