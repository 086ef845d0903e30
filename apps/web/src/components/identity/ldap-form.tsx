"use client";
// People → Sign-in, Active Directory: on or off (off keeps the settings), servers (LDAPS, or
// ldap:// with StartTLS), the CA, the service account (its password is written here and never
// shown again), where and how people are found, the group strategy, and which AD groups hold which
// role. Test tries what is in the form, saved or not (ldap-test-report.tsx shows the answer).
import type { LdapSettingsInput, SignInSettings } from "@llmgw/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../trpc/react";
import { FormError } from "../ui/form-error";
import { LdapTestReportView } from "./ldap-test-report";

type Role = "admin" | "operator" | "viewer";
type Strategy = "in-chain" | "member-of";
interface Mapping {
  dn: string;
  role: Role;
  scope: string;
}

const ROLES: Role[] = ["viewer", "operator", "admin"];
const AD_USER_FILTER = "(&(objectClass=user)(sAMAccountName={username}))";
const AD_UPN_FILTER = "(&(objectClass=user)(userPrincipalName={username}))";

export function LdapForm({ current }: { current: SignInSettings["ldap"] }) {
  const { t } = useTranslation("signin-setup");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  const [servers, setServers] = useState((current?.servers ?? []).join("\n"));
  const [startTls, setStartTls] = useState(current?.startTls ?? false);
  const [allowInsecure, setAllowInsecure] = useState(current?.allowInsecure ?? false);
  const [caPem, setCaPem] = useState(current?.caPem ?? "");
  const [bindDn, setBindDn] = useState(current?.bindDn ?? "");
  const [bindPassword, setBindPassword] = useState("");
  const [userBase, setUserBase] = useState(current?.userBase ?? "");
  const [userFilter, setUserFilter] = useState(current?.userFilter ?? AD_USER_FILTER);
  const [upnFilter, setUpnFilter] = useState(current?.upnFilter ?? AD_UPN_FILTER);
  const [nameAttribute, setNameAttribute] = useState(current?.nameAttribute ?? "sAMAccountName");
  const [groupBase, setGroupBase] = useState(current?.groupBase ?? "");
  const [groupStrategy, setStrategy] = useState<Strategy>(current?.groupStrategy ?? "in-chain");
  const [mappings, setMappings] = useState<Mapping[]>(current?.groupMappings ?? []);
  const save = useMutation(
    trpc.signIn.setLdap.mutationOptions({
      onSuccess: (settings) => {
        queryClient.setQueryData(trpc.signIn.settings.queryKey(), settings);
        setBindPassword("");
      },
    }),
  );
  const test = useMutation(trpc.signIn.testLdapForm.mutationOptions());
  const values = (): LdapSettingsInput => ({
    enabled,
    servers: servers
      .split(/\s+/)
      .map((s) => s.trim())
      .filter(Boolean),
    startTls,
    allowInsecure,
    caPem,
    bindDn,
    userBase,
    userFilter,
    upnFilter,
    nameAttribute,
    groupStrategy,
    groupMappings: mappings,
    ...(groupBase.trim() ? { groupBase } : {}),
    // Left empty, the stored password is kept (and used by Test).
    ...(bindPassword ? { bindPassword } : {}),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    test.reset();
    save.mutate(values());
  };
  const change = (index: number, patch: Partial<Mapping>) =>
    setMappings((list) => list.map((m, i) => (i === index ? { ...m, ...patch } : m)));

  return (
    <form className="panel" onSubmit={onSubmit} data-testid="ldap-panel">
      <h2>{t("ldap.title")}</h2>
      <p className="muted">{t("ldap.help")}</p>
      <label className="inline-field">
        <input
          type="checkbox"
          data-testid="ldap-enabled"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        <span>{t("ldap.enabled")}</span>
      </label>
      <p className="muted" data-testid="ldap-enabled-help">
        {enabled ? t("ldap.enabledHelp") : t("ldap.disabledHelp")}
      </p>
      <label className="field">
        <span>{t("ldap.servers")}</span>
        <textarea
          data-testid="ldap-servers"
          rows={2}
          placeholder={t("ldap.serversExample")}
          value={servers}
          onChange={(e) => setServers(e.target.value)}
        />
      </label>
      <label className="inline-field">
        <input
          type="checkbox"
          data-testid="ldap-starttls"
          checked={startTls}
          onChange={(e) => setStartTls(e.target.checked)}
        />
        <span>{t("ldap.startTls")}</span>
      </label>
      <label className="inline-field">
        <input
          type="checkbox"
          data-testid="ldap-insecure"
          checked={allowInsecure}
          onChange={(e) => setAllowInsecure(e.target.checked)}
        />
        <span>{t("ldap.allowInsecure")}</span>
      </label>
      <label className="field">
        <span>{t("ldap.caPem")}</span>
        <textarea
          data-testid="ldap-ca"
          rows={3}
          placeholder={t("ldap.caExample")}
          value={caPem}
          onChange={(e) => setCaPem(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("ldap.bindDn")}</span>
        <input
          data-testid="ldap-bind-dn"
          value={bindDn}
          onChange={(e) => setBindDn(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{current?.hasBindPassword ? t("ldap.passwordStored") : t("ldap.bindPassword")}</span>
        <input
          data-testid="ldap-bind-password"
          type="password"
          autoComplete="off"
          value={bindPassword}
          onChange={(e) => setBindPassword(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("ldap.userBase")}</span>
        <input
          data-testid="ldap-user-base"
          placeholder={t("ldap.userBaseExample")}
          value={userBase}
          onChange={(e) => setUserBase(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("ldap.userFilter")}</span>
        <input
          data-testid="ldap-user-filter"
          value={userFilter}
          onChange={(e) => setUserFilter(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("ldap.upnFilter")}</span>
        <input
          data-testid="ldap-upn-filter"
          value={upnFilter}
          onChange={(e) => setUpnFilter(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("ldap.nameAttribute")}</span>
        <input
          data-testid="ldap-name-attribute"
          value={nameAttribute}
          onChange={(e) => setNameAttribute(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("ldap.groupBase")}</span>
        <input
          data-testid="ldap-group-base"
          value={groupBase}
          onChange={(e) => setGroupBase(e.target.value)}
        />
      </label>
      <label className="field">
        <span>{t("ldap.strategy")}</span>
        <select
          data-testid="ldap-strategy"
          value={groupStrategy}
          onChange={(e) => setStrategy(e.target.value === "member-of" ? "member-of" : "in-chain")}
        >
          <option value="in-chain">{t("ldap.strategyInChain")}</option>
          <option value="member-of">{t("ldap.strategyMemberOf")}</option>
        </select>
      </label>
      <h3>{t("ldap.mappings")}</h3>
      <p className="muted">{t("ldap.mappingsHelp")}</p>
      {mappings.map((m, i) => (
        <div className="toolbar" key={i} data-testid="ldap-mapping">
          <input
            aria-label={t("ldap.groupDn")}
            className="ldap-mapping-dn"
            data-testid={`ldap-mapping-dn-${i}`}
            placeholder={t("ldap.groupDnExample")}
            value={m.dn}
            onChange={(e) => change(i, { dn: e.target.value })}
          />
          <select
            aria-label={t("ldap.role")}
            data-testid={`ldap-mapping-role-${i}`}
            value={m.role}
            onChange={(e) => change(i, { role: e.target.value as Role })}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {tc(`roles.${r}`)}
              </option>
            ))}
          </select>
          <input
            aria-label={t("ldap.scope")}
            data-testid={`ldap-mapping-scope-${i}`}
            value={m.scope}
            onChange={(e) => change(i, { scope: e.target.value })}
          />
          <button
            type="button"
            className="control"
            data-testid={`ldap-mapping-remove-${i}`}
            onClick={() => setMappings((list) => list.filter((_, j) => j !== i))}
          >
            {t("ldap.removeMapping")}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="control"
        data-testid="ldap-mapping-add"
        onClick={() => setMappings((list) => [...list, { dn: "", role: "viewer", scope: "*" }])}
      >
        {t("ldap.addMapping")}
      </button>
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
          disabled={test.isPending || servers.trim() === ""}
          onClick={() => test.mutate(values())}
        >
          {test.isPending ? t("ldap.testing") : t("ldap.test")}
        </button>
      </div>
      <p className="muted">{t("ldap.testHelp")}</p>
      {test.data ? <LdapTestReportView report={test.data} /> : null}
    </form>
  );
}
