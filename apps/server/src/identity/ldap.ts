// Sign-in with Active Directory over LDAP (ldapts). Each attempt binds as the service account,
// finds the person with the configured filter (the typed name escaped per RFC 4515), binds as the
// person with their password, then reads their groups with the configured strategy:
//   in-chain  — AD's LDAP_MATCHING_RULE_IN_CHAIN (1.2.840.113556.1.4.1941), nested groups included;
//   member-of — the person's memberOf attribute (direct groups only on AD; OpenLDAP's dynlist
//               overlay can fill it with nested ones).
// Groups map to roles through llmgw groups standing for the directory group (externalId = DN).
// Servers are tried in order; the next one is tried when one cannot be reached or refuses the
// service account. An empty password is refused before anything is sent: a simple bind with an
// empty password is an anonymous bind, which most servers accept.
// Active Directory explains a refused bind in the diagnostic message (`…, data 533, …`): 52e is a
// wrong password, answered like an unknown name; the others (disabled, expired, locked, must
// change password, time or workstation restriction) are named to the person, see adBindRefusal.
import { randomUUID } from "node:crypto";
import type { ConnectionOptions } from "node:tls";
import { Client, InvalidCredentialsError, StrongAuthRequiredError } from "ldapts";
import {
  and,
  eq,
  groupMembers,
  groups,
  inArray,
  roleBindings,
  users,
  type Database,
} from "@llmgw/db";
import type { Actor, LdapGroupMapping } from "@llmgw/api";
import { recordAudit } from "./audit";
import { SignInRefused } from "./entra";
import { classifyLdapFailure, DirectoryUnavailable, PlainLdapRefused } from "./ldap-failure";
import type { LdapSettings, SignInStore } from "./sign-in-settings";

export const IN_CHAIN_RULE = "1.2.840.113556.1.4.1941";
const CONNECT_TIMEOUT_MS = 5_000;
const OPERATION_TIMEOUT_MS = 10_000;

/** RFC 4515: a value inside a filter; `*`, `(`, `)`, `\` and NUL lose their meaning. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** The filter for a typed name: the UPN kind when it has `@`, the sAMAccountName kind otherwise. */
export function userFilterFor(settings: LdapSettings, username: string): string {
  const template = username.includes("@") ? settings.upnFilter : settings.userFilter;
  return template.split("{username}").join(escapeFilterValue(username));
}

/** DNs compare case-insensitively and without spaces after commas. */
export function normaliseDn(dn: string): string {
  return dn
    .split(",")
    .map((part) => part.trim())
    .join(",")
    .toLowerCase();
}

export interface LdapPerson {
  dn: string;
  username: string;
  displayName: string;
  email: string | null;
  /** Normalised DNs of every group the strategy found. */
  groupDns: string[];
}

/**
 * AD's sub-codes (`data XXX` in a refused bind's diagnostic message) about an account whose
 * password was right: what is wrong with the account, and what the person can do. Left out, so
 * answered as wrong credentials: 52e (wrong password) and 525 (no such user). 775 (locked) is the
 * one AD sends whatever the password, so naming it says that a locked account has this name;
 * that is what the person needs to know, and the lockout already showed it to whoever caused it.
 */
export const AD_BIND_SUB_CODES: Readonly<Record<string, { reason: string; advice: string }>> = {
  "530": {
    reason: "the account may not sign in at this time of day (logon hours)",
    advice: "try again within your allowed hours or ask your directory admin",
  },
  "531": {
    reason: "the account may not sign in from this server (workstation restriction)",
    advice: "ask your directory admin to allow it",
  },
  "532": {
    reason: "the password has expired",
    advice: "change it (for example at a Windows sign-in) and try again",
  },
  "533": { reason: "the account is disabled", advice: "ask your directory admin to enable it" },
  "701": { reason: "the account has expired", advice: "ask your directory admin to extend it" },
  "773": {
    reason: "the password must be changed before the first sign-in",
    advice: "set a new one (for example at a Windows sign-in) and try again",
  },
  "775": {
    reason: "the account is locked after too many wrong passwords",
    advice: "wait for it to unlock or ask your directory admin",
  },
};

/** The AD sub-code a diagnostic message names when it is one of AD_BIND_SUB_CODES, else null. */
export function adBindSubCode(diagnostic: string): string | null {
  const code = /\bdata ([0-9a-f]{3,4})\b/i.exec(diagnostic)?.[1]?.toLowerCase();
  return code && code in AD_BIND_SUB_CODES ? code : null;
}

/** The refusal shown to a person whose bind AD refused with a sub-code about the account. */
export function adBindRefusal(diagnostic: string): string | null {
  const code = adBindSubCode(diagnostic);
  if (!code) return null;
  const { reason, advice } = AD_BIND_SUB_CODES[code]!;
  return `Active Directory refused the sign-in: ${reason} (AD code ${code}); ${advice}`;
}

export function describeLdapError(error: unknown): string {
  const e = error as Error & { code?: string | number };
  if (e instanceof InvalidCredentialsError) return "invalid credentials";
  // AD (and Samba) refuse a simple bind over a connection without TLS with strongerAuthRequired.
  if (e instanceof StrongAuthRequiredError)
    return (
      "the server requires an encrypted connection for password binds (Strong(er) " +
      `authentication required: ${e.message}); use ldaps:// or turn on StartTLS`
    );
  return e.message || String(e.code ?? error);
}

/** Why the service account was refused, with AD's reason when it sent one. */
export function serviceRefusal(error: unknown): string {
  if (!(error instanceof InvalidCredentialsError)) return describeLdapError(error);
  const code = adBindSubCode(error.message);
  return (
    "the service account (bind DN and password) was refused" +
    (code ? `: ${AD_BIND_SUB_CODES[code]!.reason} (AD code ${code})` : "")
  );
}

export function first(value: unknown): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v === null) return null;
  return Buffer.isBuffer(v) ? v.toString("utf8") : String(v as string);
}

function all(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString("utf8") : String(v as string)));
}

export class LdapDirectory {
  constructor(
    readonly settings: LdapSettings,
    private readonly bindPassword: string,
  ) {}

  private tls(url: string): ConnectionOptions {
    const host = new URL(url.replace(/^ldaps?:/, "http:")).hostname;
    const ca = this.settings.caPem?.trim() ? [this.settings.caPem] : undefined;
    // `host` too: StartTLS upgrades an existing socket, and without it Node checks the
    // certificate against "localhost" instead of an IP address in the URL.
    const ip = /^[\d.]+$/.test(host) || host.includes(":");
    return { ca, host, servername: ip ? undefined : host, minVersion: "TLSv1.2" };
  }

  /** A client to `url`, upgraded with StartTLS when set, bound as the service account. */
  async connect(url: string): Promise<Client> {
    const plain = url.startsWith("ldap:");
    if (plain && !this.settings.startTls && !this.settings.allowInsecure)
      throw new PlainLdapRefused(url);
    const client = new Client({
      url,
      connectTimeout: CONNECT_TIMEOUT_MS,
      timeout: OPERATION_TIMEOUT_MS,
      tlsOptions: plain ? undefined : this.tls(url),
      strictDN: false,
    });
    try {
      if (plain && this.settings.startTls) await client.startTLS(this.tls(url));
      await client.bind(this.settings.bindDn, this.bindPassword);
      return client;
    } catch (error) {
      await client.unbind().catch(() => undefined);
      throw error;
    }
  }

  /** The first server that answers and accepts the service account; the errors of those before. */
  async connectAny(): Promise<{ client: Client; url: string }> {
    const failures: DirectoryUnavailable["failures"][number][] = [];
    for (const url of this.settings.servers) {
      try {
        return { client: await this.connect(url), url };
      } catch (error) {
        failures.push({ url, failure: classifyLdapFailure(error) });
      }
    }
    throw new DirectoryUnavailable(failures);
  }

  private groupBase(): string {
    return this.settings.groupBase?.trim() || this.settings.userBase;
  }

  async inChainGroups(client: Client, userDn: string): Promise<string[]> {
    const { searchEntries } = await client.search(this.groupBase(), {
      scope: "sub",
      filter: `(member:${IN_CHAIN_RULE}:=${escapeFilterValue(userDn)})`,
      attributes: ["dn"],
    });
    return searchEntries.map((e) => normaliseDn(e.dn));
  }

  async memberOfGroups(client: Client, userDn: string): Promise<string[]> {
    const { searchEntries } = await client.search(userDn, {
      scope: "base",
      filter: "(objectClass=*)",
      attributes: ["memberOf"],
    });
    return all(searchEntries[0]?.memberOf).map(normaliseDn);
  }

  /**
   * Groups by the configured strategy. An in-chain query that finds nothing while memberOf lists
   * groups means the server does not know the rule (OpenLDAP answers such a filter with nothing):
   * that is refused, naming the strategy, rather than read as "in no group".
   */
  async groupsOf(client: Client, userDn: string, who: string): Promise<string[]> {
    if (this.settings.groupStrategy === "member-of") return this.memberOfGroups(client, userDn);
    const chain = await this.inChainGroups(client, userDn);
    if (chain.length > 0) return chain;
    const memberOf = await this.memberOfGroups(client, userDn);
    if (memberOf.length > 0)
      throw new SignInRefused(
        `the in-chain group query (${IN_CHAIN_RULE}) found no groups for ${who}, yet their ` +
          `memberOf lists ${memberOf.length}: this directory does not seem to support AD's ` +
          "in-chain rule (OpenLDAP does not); an admin should set the group strategy to memberOf " +
          "on People → Sign-in",
      );
    return [];
  }

  /** Checks the name and password; throws SignInRefused with the reason. */
  async authenticate(username: string, password: string): Promise<LdapPerson> {
    if (password.length === 0)
      throw new SignInRefused(
        "an empty password is refused (to a directory it would be an anonymous sign-in)",
      );
    const name = username.trim();
    if (name.length === 0) throw new SignInRefused("username is required");
    const { client } = await this.connectAny();
    try {
      const attribute = this.settings.nameAttribute;
      const { searchEntries } = await client.search(this.settings.userBase, {
        scope: "sub",
        filter: userFilterFor(this.settings, name),
        attributes: ["dn", attribute, "displayName", "cn", "mail"],
        sizeLimit: 2,
      });
      if (searchEntries.length !== 1) throw new WrongCredentials();
      const entry = searchEntries[0]!;
      // The person's own bind on a separate connection, so the service bind stays for the reads.
      const own = await this.connectAs(entry.dn, password);
      await own.unbind().catch(() => undefined);
      const groupDns = await this.groupsOf(client, entry.dn, name);
      const shown = first(entry[attribute]) ?? name;
      return {
        dn: entry.dn,
        username: shown.toLowerCase(),
        displayName: first(entry.displayName) ?? first(entry.cn) ?? shown,
        email: first(entry.mail),
        groupDns,
      };
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  private async connectAs(dn: string, password: string): Promise<Client> {
    const failures: DirectoryUnavailable["failures"][number][] = [];
    for (const url of this.settings.servers) {
      const plain = url.startsWith("ldap:");
      const client = new Client({
        url,
        connectTimeout: CONNECT_TIMEOUT_MS,
        timeout: OPERATION_TIMEOUT_MS,
        tlsOptions: plain ? undefined : this.tls(url),
        strictDN: false,
      });
      try {
        if (plain && this.settings.startTls) await client.startTLS(this.tls(url));
        await client.bind(dn, password);
        return client;
      } catch (error) {
        await client.unbind().catch(() => undefined);
        if (error instanceof InvalidCredentialsError) {
          const reason = adBindRefusal(error.message);
          throw reason ? new SignInRefused(reason) : new WrongCredentials();
        }
        failures.push({ url, failure: classifyLdapFailure(error) });
      }
    }
    throw new DirectoryUnavailable(failures);
  }
}

export class WrongCredentials extends Error {
  override readonly name = "WrongCredentials";
}

/** Groups standing for an AD group: llmgw groups whose externalId is a DN. */
async function directoryGroups(db: Database) {
  const rows = await db.select().from(groups);
  return rows.filter((g) => g.externalId !== null && /^[a-z][\w-]*=/i.test(g.externalId));
}

/**
 * Makes the settings' group → role mappings true: one llmgw group (source ldap, externalId = DN)
 * per mapped DN, holding exactly the mapped role; groups of source ldap no longer mapped go.
 */
export async function applyGroupMappings(
  db: Database,
  mappings: readonly LdapGroupMapping[],
  actor: Actor,
): Promise<void> {
  const byDn = new Map<string, LdapGroupMapping[]>();
  for (const m of mappings)
    byDn.set(normaliseDn(m.dn), [...(byDn.get(normaliseDn(m.dn)) ?? []), m]);
  const existing = await db.select().from(groups).where(eq(groups.source, "ldap"));
  for (const group of existing) {
    if (group.externalId && byDn.has(normaliseDn(group.externalId))) continue;
    await db
      .delete(roleBindings)
      .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, group.id)));
    await db.delete(groups).where(eq(groups.id, group.id));
  }
  const all = await db.select().from(groups);
  for (const [dn, list] of byDn) {
    let group = all.find((g) => g.externalId !== null && normaliseDn(g.externalId) === dn);
    if (!group) {
      const cn = /^[^=]+=([^,]+)/.exec(list[0]!.dn)?.[1]?.trim() ?? dn;
      let name = `ad:${cn.toLowerCase().replace(/\s+/g, "-")}`;
      for (let n = 2; all.some((g) => g.name === name); n += 1) name = `ad:${cn}-${n}`;
      [group] = await db
        .insert(groups)
        .values({ id: randomUUID(), name, source: "ldap", externalId: list[0]!.dn })
        .returning();
      all.push(group!);
    }
    const id = group!.id;
    await db
      .delete(roleBindings)
      .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, id)));
    for (const m of list)
      await db
        .insert(roleBindings)
        .values({
          id: randomUUID(),
          subjectKind: "group",
          subjectId: id,
          role: m.role,
          scope: m.scope,
          createdBy: actor.username,
        })
        .onConflictDoNothing();
  }
}

/** The llmgw group names of the mappings, in the settings' order. */
export async function mappedGroups(db: Database, mappings: readonly LdapGroupMapping[]) {
  const rows = await directoryGroups(db);
  return mappings.map((mapping) => ({
    mapping,
    group:
      rows.find((g) => normaliseDn(g.externalId!) === normaliseDn(mapping.dn))?.name ?? mapping.dn,
  }));
}

/**
 * Finds or makes the person for an AD sign-in (by `ldap:<dn>`, else a SCIM-provisioned person
 * with the same name), and sets their membership of every group standing for an AD group. Refuses
 * someone in no mapped group.
 */
export async function upsertLdapPerson(db: Database, person: LdapPerson) {
  const dnGroups = await directoryGroups(db);
  const held = dnGroups.filter((g) => person.groupDns.includes(normaliseDn(g.externalId!)));
  if (held.length === 0)
    throw new SignInRefused(
      `${person.username} is in no directory group mapped to a role here ` +
        `(found ${person.groupDns.length} group${person.groupDns.length === 1 ? "" : "s"}); ` +
        "an admin maps AD groups to roles on People → Sign-in",
    );
  const subject = `ldap:${normaliseDn(person.dn)}`;
  const [bySubject] = await db.select().from(users).where(eq(users.subject, subject));
  let user = bySubject;
  if (user) {
    [user] = await db
      .update(users)
      .set({ displayName: person.displayName, email: person.email ?? user.email })
      .where(eq(users.id, user.id))
      .returning();
  } else {
    const [taken] = await db.select().from(users).where(eq(users.username, person.username));
    if (taken)
      throw new SignInRefused(
        `the name ${person.username} belongs to another account here; an admin must rename one`,
      );
    [user] = await db
      .insert(users)
      .values({
        id: randomUUID(),
        username: person.username,
        displayName: person.displayName,
        email: person.email,
        source: "ldap",
        subject,
        role: null,
      })
      .returning();
  }
  const userId = user!.id;
  const heldIds = new Set(held.map((g) => g.id));
  const dropped = dnGroups.filter((g) => !heldIds.has(g.id)).map((g) => g.id);
  if (dropped.length > 0)
    await db
      .delete(groupMembers)
      .where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, dropped)));
  for (const g of held)
    await db.insert(groupMembers).values({ groupId: g.id, userId }).onConflictDoNothing();
  return user!;
}

/**
 * Sign-in could not be tried: no server could be used, or the setup is incomplete. The person
 * signing in is told only that; the reason went to the server log, since the public sign-in page
 * must not show the directory's address or error codes to whoever types a name.
 */
export class SignInUnavailable extends Error {
  override readonly name = "SignInUnavailable";
  constructor() {
    super("sign-in with Active Directory is unavailable right now");
  }
}

/** The sign-in side, bound to the stored settings. */
export class LdapSignIn {
  constructor(
    private readonly store: SignInStore,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  async directory(): Promise<LdapDirectory> {
    const settings = await this.store.ldap();
    if (!settings?.enabled)
      throw new SignInRefused("sign-in with Active Directory is not set up here");
    const password = await this.store.ldapPassword();
    if (!password) {
      this.log("Active Directory sign-in: no bind password is stored; set it on People → Sign-in");
      throw new SignInUnavailable();
    }
    return new LdapDirectory(settings, password);
  }

  async enabled(): Promise<boolean> {
    return (await this.store.ldap())?.enabled === true;
  }

  /** The signed-in person's row, or WrongCredentials / SignInRefused / SignInUnavailable. */
  async signIn(username: string, password: string) {
    const directory = await this.directory();
    const person = await this.authenticate(directory, username, password);
    const user = await upsertLdapPerson(this.store.db, person);
    await recordAudit(this.store.db, {
      actor: user.username,
      action: "sign-in.ldap",
      target: person.dn,
      details: { groups: person.groupDns.length },
    });
    return user;
  }

  /** The directory's answer; anything but a verdict on this person is logged and unavailable. */
  private async authenticate(directory: LdapDirectory, username: string, password: string) {
    try {
      return await directory.authenticate(username, password);
    } catch (error) {
      if (error instanceof WrongCredentials || error instanceof SignInRefused) throw error;
      const { code, detail } = classifyLdapFailure(error);
      const why = error instanceof DirectoryUnavailable ? error.message : `${code}: ${detail}`;
      this.log(`Active Directory sign-in is unavailable: ${why}`);
      throw new SignInUnavailable();
    }
  }
}
