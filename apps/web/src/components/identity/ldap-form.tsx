"use client";
// People → Sign-in, Active Directory: on or off (off keeps the settings), servers (LDAPS, or
// ldap:// with StartTLS), the CA, the service account (its password is written here and never
// shown again), where and how people are found, the group strategy, and which AD groups hold which
// role. Test tries what is in the form, saved or not (ldap-test-report.tsx shows the answer).
import type { SignInSettings } from "@llmgw/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { FormError } from "../ui/form-error";
import { draftFromSettings, ldapInput, type LdapDraft } from "./ldap-draft";
import { LdapConnectionFields, LdapSearchFields } from "./ldap-fields";
import { LdapGroupMappings } from "./ldap-group-mappings";
import { LdapTestReportView } from "./ldap-test-report";

export function LdapForm({ current }: { current: SignInSettings["ldap"] }) {
  const { t } = useTranslation("signin-setup");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<LdapDraft>(() => draftFromSettings(current));
  const patch = (next: Partial<LdapDraft>) => setDraft((previous) => ({ ...previous, ...next }));
  const save = useMutation(
    trpc.signIn.setLdap.mutationOptions({
      onSuccess: (settings) => {
        queryClient.setQueryData(trpc.signIn.settings.queryKey(), settings);
        patch({ bindPassword: "" });
      },
    }),
  );
  const test = useMutation(trpc.signIn.testLdapForm.mutationOptions());
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    test.reset();
    save.mutate(ldapInput(draft));
  };

  return (
    <form className="panel" onSubmit={onSubmit} data-testid="ldap-panel">
      <h2>{t("ldap.title")}</h2>
      <p className="muted">{t("ldap.help")}</p>
      <LdapConnectionFields
        draft={draft}
        onChange={patch}
        hasBindPassword={current?.hasBindPassword ?? false}
      />
      <LdapSearchFields draft={draft} onChange={patch} />
      <LdapGroupMappings
        mappings={draft.groupMappings}
        onChange={(groupMappings) => patch({ groupMappings })}
      />
      <FormError error={save.error} testId="ldap-error" />
      {test.error ? (
        <p className="form-error" role="alert" data-testid="ldap-test-error">
          {test.error.message}
        </p>
      ) : null}
      {save.isSuccess ? (
        <p className="muted" data-testid="ldap-saved">
          {t("ldap.saved")}
        </p>
      ) : null}
      <div className="toolbar">
        <button className="primary" type="submit" data-testid="ldap-save" disabled={save.isPending}>
          {t("save")}
        </button>
        <button
          type="button"
          className="control"
          data-testid="ldap-test"
          disabled={test.isPending || draft.servers.trim() === ""}
          onClick={() => test.mutate(ldapInput(draft))}
        >
          {test.isPending ? t("ldap.testing") : t("ldap.test")}
        </button>
      </div>
      <p className="muted">{t("ldap.testHelp")}</p>
      {test.data ? <LdapTestReportView report={test.data} /> : null}
    </form>
  );
}
