// The Active Directory form's contents as typed, and the settings they become. The servers box
// holds one address per line; an empty group base and an empty password are left out, so the
// server keeps the stored password (Test uses it too).
import type { LdapSettingsInput, SignInSettings } from "@llmgw/api";

export type LdapRole = "admin" | "operator" | "viewer";
type GroupStrategy = "in-chain" | "member-of";

export interface GroupMapping {
  dn: string;
  role: LdapRole;
  scope: string;
}

export interface LdapDraft {
  enabled: boolean;
  /** One server address per line (or separated by spaces). */
  servers: string;
  startTls: boolean;
  allowInsecure: boolean;
  caPem: string;
  bindDn: string;
  /** Empty keeps the stored password. */
  bindPassword: string;
  userBase: string;
  userFilter: string;
  upnFilter: string;
  nameAttribute: string;
  groupBase: string;
  groupStrategy: GroupStrategy;
  groupMappings: GroupMapping[];
}

/** The draft fields typed as text, which one kind of input edits. */
export type LdapTextField = {
  [K in keyof LdapDraft]: LdapDraft[K] extends string ? K : never;
}[keyof LdapDraft];

export type LdapFlag = "enabled" | "startTls" | "allowInsecure";

export const LDAP_ROLES: readonly LdapRole[] = ["viewer", "operator", "admin"];
const AD_USER_FILTER = "(&(objectClass=user)(sAMAccountName={username}))";
const AD_UPN_FILTER = "(&(objectClass=user)(userPrincipalName={username}))";

/** The form as it opens: the stored settings, or Active Directory's usual filters. */
export function draftFromSettings(current: SignInSettings["ldap"]): LdapDraft {
  return {
    enabled: current?.enabled ?? true,
    servers: (current?.servers ?? []).join("\n"),
    startTls: current?.startTls ?? false,
    allowInsecure: current?.allowInsecure ?? false,
    caPem: current?.caPem ?? "",
    bindDn: current?.bindDn ?? "",
    bindPassword: "",
    userBase: current?.userBase ?? "",
    userFilter: current?.userFilter ?? AD_USER_FILTER,
    upnFilter: current?.upnFilter ?? AD_UPN_FILTER,
    nameAttribute: current?.nameAttribute ?? "sAMAccountName",
    groupBase: current?.groupBase ?? "",
    groupStrategy: current?.groupStrategy ?? "in-chain",
    groupMappings: current?.groupMappings ?? [],
  };
}

export function ldapInput(draft: LdapDraft): LdapSettingsInput {
  const { servers, groupBase, bindPassword, ...rest } = draft;
  return {
    ...rest,
    servers: servers
      .split(/\s+/)
      .map((s) => s.trim())
      .filter(Boolean),
    ...(groupBase.trim() ? { groupBase } : {}),
    ...(bindPassword ? { bindPassword } : {}),
  };
}
