"use client";
// The Active Directory form's boxes: where the directory is and how to reach it safely, and where
// and how people and their groups are found. Each box edits one field of the draft.
import { useTranslation } from "react-i18next";
import { FormField } from "../ui/form-field";
import type { LdapDraft, LdapFlag, LdapTextField } from "./ldap-draft";

export interface LdapFieldsProps {
  draft: LdapDraft;
  onChange(patch: Partial<LdapDraft>): void;
}

function TextInput({
  draft,
  onChange,
  field,
  testId,
  placeholder,
  rows,
}: LdapFieldsProps & {
  field: LdapTextField;
  testId: string;
  placeholder?: string;
  rows?: number;
}) {
  const common = {
    "data-testid": testId,
    placeholder,
    value: draft[field],
    onChange: (e: { target: { value: string } }) => onChange({ [field]: e.target.value }),
  };
  return rows === undefined ? <input {...common} /> : <textarea rows={rows} {...common} />;
}

function Flag({
  draft,
  onChange,
  flag,
  testId,
  label,
}: LdapFieldsProps & { flag: LdapFlag; testId: string; label: string }) {
  return (
    <label className="inline-field">
      <input
        type="checkbox"
        data-testid={testId}
        checked={draft[flag]}
        onChange={(e) => onChange({ [flag]: e.target.checked })}
      />
      <span>{label}</span>
    </label>
  );
}

/** On or off, the servers, TLS, the CA and the service account. */
export function LdapConnectionFields({
  hasBindPassword,
  ...props
}: LdapFieldsProps & { hasBindPassword: boolean }) {
  const { t } = useTranslation("signin-setup");
  const { draft, onChange } = props;
  return (
    <>
      <Flag {...props} flag="enabled" testId="ldap-enabled" label={t("ldap.enabled")} />
      <p className="muted" data-testid="ldap-enabled-help">
        {draft.enabled ? t("ldap.enabledHelp") : t("ldap.disabledHelp")}
      </p>
      <FormField className="field" label={t("ldap.servers")}>
        <TextInput
          {...props}
          field="servers"
          testId="ldap-servers"
          rows={2}
          placeholder={t("ldap.serversExample")}
        />
      </FormField>
      <Flag {...props} flag="startTls" testId="ldap-starttls" label={t("ldap.startTls")} />
      <Flag
        {...props}
        flag="allowInsecure"
        testId="ldap-insecure"
        label={t("ldap.allowInsecure")}
      />
      <FormField className="field" label={t("ldap.caPem")}>
        <TextInput
          {...props}
          field="caPem"
          testId="ldap-ca"
          rows={3}
          placeholder={t("ldap.caExample")}
        />
      </FormField>
      <FormField className="field" label={t("ldap.bindDn")}>
        <TextInput {...props} field="bindDn" testId="ldap-bind-dn" />
      </FormField>
      <FormField
        className="field"
        label={hasBindPassword ? t("ldap.passwordStored") : t("ldap.bindPassword")}
      >
        <input
          data-testid="ldap-bind-password"
          type="password"
          autoComplete="off"
          value={draft.bindPassword}
          onChange={(e) => onChange({ bindPassword: e.target.value })}
        />
      </FormField>
    </>
  );
}

/** Where people are found, how a name or UPN is looked up, and how their groups are read. */
export function LdapSearchFields(props: LdapFieldsProps) {
  const { t } = useTranslation("signin-setup");
  const { draft, onChange } = props;
  return (
    <>
      <FormField className="field" label={t("ldap.userBase")}>
        <TextInput
          {...props}
          field="userBase"
          testId="ldap-user-base"
          placeholder={t("ldap.userBaseExample")}
        />
      </FormField>
      <FormField className="field" label={t("ldap.userFilter")}>
        <TextInput {...props} field="userFilter" testId="ldap-user-filter" />
      </FormField>
      <FormField className="field" label={t("ldap.upnFilter")}>
        <TextInput {...props} field="upnFilter" testId="ldap-upn-filter" />
      </FormField>
      <FormField className="field" label={t("ldap.nameAttribute")}>
        <TextInput {...props} field="nameAttribute" testId="ldap-name-attribute" />
      </FormField>
      <FormField className="field" label={t("ldap.groupBase")}>
        <TextInput {...props} field="groupBase" testId="ldap-group-base" />
      </FormField>
      <FormField className="field" label={t("ldap.strategy")}>
        <select
          data-testid="ldap-strategy"
          value={draft.groupStrategy}
          onChange={(e) =>
            onChange({ groupStrategy: e.target.value === "member-of" ? "member-of" : "in-chain" })
          }
        >
          <option value="in-chain">{t("ldap.strategyInChain")}</option>
          <option value="member-of">{t("ldap.strategyMemberOf")}</option>
        </select>
      </FormField>
    </>
  );
}
