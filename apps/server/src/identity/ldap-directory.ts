// The directory client for Active Directory sign-in over LDAP (ldapts). Each attempt binds as the
// service account, finds the person with the configured filter, binds as the person with their
// password, then reads their groups with the configured strategy:
//   in-chain  — AD's LDAP_MATCHING_RULE_IN_CHAIN (1.2.840.113556.1.4.1941), nested groups included;
//   member-of — the person's memberOf attribute (direct groups only on AD; OpenLDAP's dynlist
//               overlay can fill it with nested ones).
// Servers are tried in order; the next one is tried when one cannot be reached or refuses the
// service account. An empty password is refused before anything is sent: a simple bind with an
// empty password is an anonymous bind, which most servers accept.
import type { ConnectionOptions } from "node:tls";
import { Client, InvalidCredentialsError } from "ldapts";
import { adBindRefusal } from "./ad-bind-codes";
import { DirectoryUnavailable, PlainLdapRefused, SignInRefused, WrongCredentials } from "./errors";
import { escapeFilterValue, IN_CHAIN_RULE, normaliseDn, userFilterFor } from "./ldap-filters";
import { classifyLdapFailure } from "./ldap-failure";
import type { LdapSettings } from "./sign-in-settings";

const CONNECT_TIMEOUT_MS = 5_000;
const OPERATION_TIMEOUT_MS = 10_000;

export interface LdapPerson {
  dn: string;
  username: string;
  displayName: string;
  email: string | null;
  /** Normalised DNs of every group the strategy found. */
  groupDns: string[];
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
    if (url.startsWith("ldap:") && !this.settings.startTls && !this.settings.allowInsecure)
      throw new PlainLdapRefused(url);
    return this.bindTo(url, this.settings.bindDn, this.bindPassword);
  }

  /** A client to `url`, upgraded with StartTLS when set, bound as `dn`; let go when that fails. */
  private async bindTo(url: string, dn: string, password: string): Promise<Client> {
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
      const [entry] = searchEntries;
      if (searchEntries.length !== 1 || !entry) throw new WrongCredentials();
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
      try {
        return await this.bindTo(url, dn, password);
      } catch (error) {
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
