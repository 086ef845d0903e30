// How people sign in: Entra ID (OIDC), Active Directory (LDAP) and SCIM provisioning. Inputs carry
// secrets (client secret, bind password); views only say whether one is stored.
import { z } from "zod";
import { multiLine, oneLine } from "../text";
import { roleSchema } from "../auth/schemas";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const entraSettingsInputSchema = z.object({
  enabled: z.boolean().default(true),
  tenantId: z
    .string()
    .trim()
    .regex(
      GUID,
      "tenant ID must be the directory (tenant) ID, a GUID from the app's Overview page",
    ),
  clientId: z
    .string()
    .trim()
    .regex(
      GUID,
      "client ID must be the application (client) ID, a GUID from the app's Overview page",
    ),
  /** Absent keeps the stored secret. */
  clientSecret: oneLine("clientSecret").min(1, "client secret is empty").max(2000).optional(),
  /** login.microsoftonline.com, or a national cloud's authority. */
  authorityUrl: z
    .url({ message: "authority must be a URL such as https://login.microsoftonline.com" })
    .default("https://login.microsoftonline.com"),
  /**
   * More than 200 groups: Entra sends `_claim_names` in place of `groups`. `refuse` fails closed
   * with a clear message; `ignore` signs the person in with the roles they hold directly.
   */
  groupsOverage: z.enum(["refuse", "ignore"]).default("refuse"),
});
export type EntraSettingsInput = z.infer<typeof entraSettingsInputSchema>;

export const entraSettingsViewSchema = entraSettingsInputSchema
  .omit({ clientSecret: true })
  .extend({ hasClientSecret: z.boolean(), redirectPath: z.string() });
export type EntraSettingsView = z.infer<typeof entraSettingsViewSchema>;

const ldapUrl = oneLine("server")
  .trim()
  .regex(/^ldaps?:\/\/[^\s/]+(:\d+)?\/?$/, "a server must look like ldaps://dc1.example.com:636");

const filterTemplate = (what: string) =>
  oneLine(what)
    .trim()
    .max(1000)
    .refine((f) => f.includes("{username}"), `the ${what} must contain {username}`)
    .refine((f) => f.startsWith("(") && f.endsWith(")"), `the ${what} must be in parentheses`);

const dnSchema = oneLine("DN")
  .trim()
  .min(3)
  .max(1000)
  .regex(
    /^[A-Za-z][\w-]*=.+/,
    "a group must be a DN such as CN=GPU Admins,OU=Groups,DC=corp,DC=example",
  );

/** A directory group whose members hold a role (on the whole cluster or one org, team, project). */
export const ldapGroupMappingSchema = z.object({
  dn: dnSchema,
  role: roleSchema,
  scope: z
    .string()
    .trim()
    .regex(
      /^(\*|(org|team|project):[a-z0-9][a-z0-9-]*)$/,
      "scope must be * or org:/team:/project:NAME",
    )
    .default("*"),
});
export type LdapGroupMapping = z.infer<typeof ldapGroupMappingSchema>;

export const LDAP_GROUP_STRATEGIES = ["in-chain", "member-of"] as const;

export const ldapSettingsInputSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Tried in order; the next one when a server cannot be reached. */
    servers: z.array(ldapUrl).min(1, "name at least one server").max(8),
    /** Upgrade ldap:// connections with StartTLS. */
    startTls: z.boolean().default(false),
    /** PEM of the CA that signed the servers' certificates; kept in the settings. */
    caPem: multiLine("caPem")
      .max(100_000)
      .refine((p) => p.trim() === "" || p.includes("-----BEGIN CERTIFICATE-----"), {
        message: "the CA must be a PEM certificate (-----BEGIN CERTIFICATE-----)",
      })
      .optional(),
    /** Only for labs: plain ldap:// without StartTLS sends passwords in the clear. */
    allowInsecure: z.boolean().default(false),
    bindDn: oneLine("bindDn").trim().min(1, "bind DN is required").max(1000),
    /** Absent keeps the stored password. */
    bindPassword: oneLine("bindPassword").min(1, "bind password is empty").max(1000).optional(),
    userBase: oneLine("userBase").trim().min(1, "user search base is required").max(1000),
    /** For names without `@` (the sAMAccountName kind); `{username}` is the escaped name typed. */
    userFilter: filterTemplate("user filter").default(
      "(&(objectClass=user)(sAMAccountName={username}))",
    ),
    /** For names with `@` (the userPrincipalName kind). */
    upnFilter: filterTemplate("UPN filter").default(
      "(&(objectClass=user)(userPrincipalName={username}))",
    ),
    /** The attribute that becomes the person's name here. */
    nameAttribute: z
      .string()
      .trim()
      .regex(
        /^[A-Za-z][\w-]*$/,
        "the name attribute must be an attribute name such as sAMAccountName",
      )
      .default("sAMAccountName"),
    /** Where the in-chain strategy looks for groups; the user base when absent. */
    groupBase: oneLine("groupBase").trim().max(1000).optional(),
    /** in-chain: AD's 1.2.840.113556.1.4.1941 (nested); member-of: the memberOf attribute. */
    groupStrategy: z.enum(LDAP_GROUP_STRATEGIES).default("in-chain"),
    groupMappings: z.array(ldapGroupMappingSchema).max(100).default([]),
  })
  .refine((s) => s.allowInsecure || s.startTls || s.servers.every((u) => u.startsWith("ldaps:")), {
    message:
      "ldap:// sends passwords in the clear: use ldaps://, turn on StartTLS, or allow insecure explicitly",
  });
export type LdapSettingsInput = z.infer<typeof ldapSettingsInputSchema>;

export const ldapSettingsViewSchema = z.object({
  enabled: z.boolean(),
  servers: z.array(z.string()),
  startTls: z.boolean(),
  caPem: z.string().nullable(),
  allowInsecure: z.boolean(),
  bindDn: z.string(),
  hasBindPassword: z.boolean(),
  userBase: z.string(),
  userFilter: z.string(),
  upnFilter: z.string(),
  nameAttribute: z.string(),
  groupBase: z.string().nullable(),
  groupStrategy: z.enum(LDAP_GROUP_STRATEGIES),
  groupMappings: z.array(z.object({ dn: z.string(), role: roleSchema, scope: z.string() })),
});
export type LdapSettingsView = z.infer<typeof ldapSettingsViewSchema>;

/**
 * Why a directory server could not be used or a search failed, as a code the console words with
 * what to check. `other` is anything not recognised; its detail is the library's own message.
 */
export const LDAP_FAILURES = [
  "dns-not-found",
  "connection-refused",
  "unreachable",
  "timeout",
  "connection-closed",
  "tls-untrusted",
  "tls-name-mismatch",
  "tls-expired",
  "encryption-required",
  "plain-ldap",
  "bind-refused",
  "base-not-found",
  "other",
] as const;
export const ldapFailureSchema = z.enum(LDAP_FAILURES);
export type LdapFailureCode = z.infer<typeof ldapFailureSchema>;

export const ldapTestReportSchema = z.object({
  servers: z.array(
    z.object({
      url: z.string(),
      bound: z.boolean(),
      /** The technical detail (admins only), e.g. `getaddrinfo ENOTFOUND dc1.corp.example`. */
      error: z.string().nullable(),
      failure: ldapFailureSchema.nullable(),
    }),
  ),
  /** People the user filter finds (the first 100), who may sign in if a mapped group holds them. */
  users: z.array(z.string()),
  /** How many the search found in all (the list above stops at 100); null when it did not run. */
  userCount: z.number().nullable(),
  /** Why the search for people failed (e.g. the user base does not exist); null when it ran. */
  userSearchFailure: ldapFailureSchema.nullable(),
  /** Its technical detail (admins only). */
  userSearchError: z.string().nullable(),
  groups: z.array(
    z.object({
      group: z.string(),
      dn: z.string(),
      role: roleSchema,
      scope: z.string(),
      members: z.array(z.string()),
      error: z.string().nullable(),
      failure: ldapFailureSchema.nullable(),
    }),
  ),
  /** Things that look wrong, such as an in-chain query that finds nothing while memberOf does. */
  warnings: z.array(z.string()),
});
export type LdapTestReport = z.infer<typeof ldapTestReportSchema>;

export const scimViewSchema = z.object({
  hasToken: z.boolean(),
  /** ISO-8601 time of the last SCIM request that changed something; null before the first. */
  lastSyncAt: z.string().nullable(),
  path: z.string(),
});
export type ScimView = z.infer<typeof scimViewSchema>;

export const signInSettingsSchema = z.object({
  entra: entraSettingsViewSchema.nullable(),
  ldap: ldapSettingsViewSchema.nullable(),
  scim: scimViewSchema,
});
export type SignInSettings = z.infer<typeof signInSettingsSchema>;

/** What the sign-in page offers; public, so it says nothing about the setup itself. */
export const signInMethodsSchema = z.object({
  entra: z.boolean(),
  ldap: z.boolean(),
});
export type SignInMethods = z.infer<typeof signInMethodsSchema>;
