// Sign-in with Active Directory, bound to the stored settings: the directory checks the name and
// password, the person's row and group memberships are made to match, and the sign-in is audited.
// Anything that is not a verdict on the person is logged and answered as "unavailable", since the
// public sign-in page must not show the directory's address or error codes.
import type { Database } from "@llmgw/db";
import { recordAudit } from "./audit";
import { upsertDirectoryPerson } from "./directory-people";
import { DirectoryUnavailable, SignInRefused, SignInUnavailable, WrongCredentials } from "./errors";
import { LdapDirectory, type LdapPerson } from "./ldap-directory";
import { classifyLdapFailure } from "./ldap-failure";
import { normaliseDn } from "./ldap-filters";
import { directoryGroups } from "./ldap-group-mappings";
import type { SignInStore } from "./sign-in-settings";

/**
 * Finds or makes the person for an AD sign-in (by `ldap:<dn>` only; a person of another source
 * with the same name is refused), and sets their membership of every group standing for an AD
 * group. Refuses someone in no mapped group, before anything is written.
 */
async function upsertLdapPerson(db: Database, person: LdapPerson) {
  const dnGroups = await directoryGroups(db);
  const held = dnGroups.filter((g) => person.groupDns.includes(normaliseDn(g.externalId)));
  if (held.length === 0)
    throw new SignInRefused(
      `${person.username} is in no directory group mapped to a role here ` +
        `(found ${person.groupDns.length} group${person.groupDns.length === 1 ? "" : "s"}); ` +
        "an admin maps AD groups to roles on People → Sign-in",
    );
  return upsertDirectoryPerson(
    db,
    {
      source: "ldap",
      subject: `ldap:${normaliseDn(person.dn)}`,
      username: person.username,
      displayName: person.displayName,
      email: person.email,
    },
    {
      adoptsScimPerson: false,
      memberships: { groups: dnGroups, heldIds: new Set(held.map((g) => g.id)) },
    },
  );
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
