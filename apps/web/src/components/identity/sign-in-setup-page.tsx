"use client";
// People → Sign-in: single sign-on with Entra ID, Active Directory (ldap-form.tsx) and SCIM provisioning, with the
// directory's last sync. Secrets are written here and never shown again: the form only says
// whether one is stored. Admins only.
import type { SignInSettings } from "@llmgw/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useAddresses } from "../../hooks/use-addresses";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../trpc/react";
import { FormError } from "../ui/form-error";
import { ErrorPanel } from "../error-panel";
import { LdapForm } from "./ldap-form";

function EntraForm({ current }: { current: SignInSettings["entra"] }) {
  const { t } = useTranslation("signin-setup");
  const { consoleUrl } = useAddresses();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [tenantId, setTenantId] = useState(current?.tenantId ?? "");
  const [clientId, setClientId] = useState(current?.clientId ?? "");
  const [clientSecret, setClientSecret] = useState("");
  const [authorityUrl, setAuthorityUrl] = useState(
    current?.authorityUrl ?? "https://login.microsoftonline.com",
  );
  const [groupsOverage, setOverage] = useState<"refuse" | "ignore">(
    current?.groupsOverage ?? "refuse",
  );
  const save = useMutation(
    trpc.signIn.setEntra.mutationOptions({
      onSuccess: (settings) => {
        queryClient.setQueryData(trpc.signIn.settings.queryKey(), settings);
        setClientSecret("");
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      tenantId,
      clientId,
      authorityUrl,
      groupsOverage,
      enabled: true,
      ...(clientSecret ? { clientSecret } : {}),
    });
  };
  return (
    <form className="panel" onSubmit={onSubmit} data-testid="entra-form">
      <h2>{t("entra.title")}</h2>
      <p className="muted" data-testid="entra-help">
        {t("entra.help", {
          url: `${consoleUrl}${current?.redirectPath ?? "/auth/entra/callback"}`,
        })}
      </p>
      <label className="field">
        <span>{t("entra.tenantId")}</span>
        <input
          data-testid="entra-tenant"
          value={tenantId}
          onChange={(e) => setTenantId(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("entra.clientId")}</span>
        <input
          data-testid="entra-client"
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{current?.hasClientSecret ? t("entra.secretStored") : t("entra.clientSecret")}</span>
        <input
          data-testid="entra-secret"
          type="password"
          autoComplete="off"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("entra.authority")}</span>
        <input
          data-testid="entra-authority"
          value={authorityUrl}
          onChange={(e) => setAuthorityUrl(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("entra.overage")}</span>
        <select
          value={groupsOverage}
          onChange={(e) => setOverage(e.target.value === "ignore" ? "ignore" : "refuse")}
        >
          <option value="refuse">{t("entra.overageRefuse")}</option>
          <option value="ignore">{t("entra.overageIgnore")}</option>
        </select>
      </label>
      <FormError error={save.error} testId="entra-error" />
      {save.isSuccess ? (
        <p className="muted" data-testid="entra-saved">
          {t("saved")}
        </p>
      ) : null}
      <button className="primary" type="submit" data-testid="entra-save" disabled={save.isPending}>
        {t("save")}
      </button>
    </form>
  );
}

function ScimPanel({ scim }: { scim: SignInSettings["scim"] }) {
  const { t, i18n } = useTranslation("signin-setup");
  const { apiUrl } = useAddresses();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rotate = useMutation(
    trpc.signIn.rotateScimToken.mutationOptions({
      onSuccess: () =>
        void queryClient.invalidateQueries({ queryKey: trpc.signIn.settings.queryKey() }),
    }),
  );
  return (
    <div className="panel" data-testid="scim-panel">
      <h2>{t("scim.title")}</h2>
      <p className="muted" data-testid="scim-help">
        {t("scim.help", { url: `${apiUrl}${scim.path}` })}
      </p>
      <p data-testid="scim-last-sync">
        {scim.lastSyncAt
          ? t("scim.lastSync", { when: formatDateTime(scim.lastSyncAt, i18n.language) })
          : t("scim.neverSynced")}
      </p>
      {rotate.data ? (
        <p className="panel" data-testid="scim-token">
          <code>{rotate.data.token}</code>
          <span className="muted">{` ${t("scim.shownOnce")}`}</span>
        </p>
      ) : null}
      <button
        type="button"
        className="control"
        data-testid="scim-rotate"
        onClick={() => rotate.mutate()}
      >
        {scim.hasToken ? t("scim.rotate") : t("scim.make")}
      </button>
    </div>
  );
}

export function SignInSetupPage() {
  const { t } = useTranslation("signin-setup");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const settings = useQuery(trpc.signIn.settings.queryOptions());
  if (settings.isError)
    return <ErrorPanel error={settings.error} onRetry={() => void settings.refetch()} />;
  if (!settings.data) return <p className="muted">{tc("loading")}</p>;
  return (
    <section className="page" data-testid="signin-setup-page">
      <div className="toolbar">
        <h1>{t("title")}</h1>
        <span className="muted" data-testid="signin-setup-state">
          {settings.data.entra?.enabled ? t("entraOn") : t("entraOff")}
        </span>
      </div>
      <EntraForm current={settings.data.entra} />
      <LdapForm current={settings.data.ldap} />
      <ScimPanel scim={settings.data.scim} />
    </section>
  );
}
