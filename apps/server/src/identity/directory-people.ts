// The person behind a directory sign-in (Entra ID or Active Directory): found again by the
// directory's subject, made on their first sign-in, and their memberships of the groups that
// stand for directory groups set to what the directory says. Each directory decides which groups
// those are and whether an unlinked SCIM-provisioned person with the same name becomes this one.
import { randomUUID } from "node:crypto";
import {
  and,
  eq,
  groupMembers,
  inArray,
  isNull,
  users,
  type Database,
  type GroupRow,
  type UserRow,
} from "@llmgw/db";
import { SignInRefused } from "./errors";

export interface DirectoryPerson {
  source: "entra" | "ldap";
  /** How the person is found again: `entra:<tid>:<oid>` or `ldap:<normalised DN>`. */
  subject: string;
  username: string;
  displayName: string;
  email: string | null;
}

export interface DirectoryMemberships {
  /** Every group standing for a group of this directory. */
  groups: readonly GroupRow[];
  /** Of those, the ones the directory says the person is in. */
  heldIds: ReadonlySet<string>;
}

export interface UpsertDirectoryPersonOptions {
  /** Whether a SCIM-provisioned person with the same name and no subject yet becomes this one. */
  adoptsScimPerson: boolean;
  /** The memberships to set; null leaves them as they are (Entra's ignored groups overage). */
  memberships: DirectoryMemberships | null;
}

/** The person's row after a directory sign-in; refuses a new person whose name is taken. */
export async function upsertDirectoryPerson(
  db: Database,
  person: DirectoryPerson,
  options: UpsertDirectoryPersonOptions,
): Promise<UserRow> {
  const existing = await findDirectoryPerson(db, person, options.adoptsScimPerson);
  const user = existing
    ? await updateDirectoryPerson(db, existing, person)
    : await insertDirectoryPerson(db, person);
  if (options.memberships) await setMemberships(db, user.id, options.memberships);
  return user;
}

async function findDirectoryPerson(
  db: Database,
  person: DirectoryPerson,
  adoptsScimPerson: boolean,
): Promise<UserRow | undefined> {
  const [bySubject] = await db.select().from(users).where(eq(users.subject, person.subject));
  if (bySubject || !adoptsScimPerson) return bySubject;
  const [byName] = await db
    .select()
    .from(users)
    .where(
      and(eq(users.username, person.username), eq(users.source, "scim"), isNull(users.subject)),
    );
  return byName;
}

function returned(rows: UserRow[], what: string): UserRow {
  const [row] = rows;
  if (!row) throw new Error(`the store returned no row for ${what}`);
  return row;
}

async function updateDirectoryPerson(db: Database, user: UserRow, person: DirectoryPerson) {
  const rows = await db
    .update(users)
    .set({
      subject: person.subject,
      displayName: person.displayName,
      email: person.email ?? user.email,
    })
    .where(eq(users.id, user.id))
    .returning();
  return returned(rows, person.username);
}

async function insertDirectoryPerson(db: Database, person: DirectoryPerson) {
  const [taken] = await db.select().from(users).where(eq(users.username, person.username));
  if (taken)
    throw new SignInRefused(
      `the name ${person.username} belongs to another account here; an admin must rename one`,
    );
  const rows = await db
    .insert(users)
    .values({
      id: randomUUID(),
      username: person.username,
      displayName: person.displayName,
      email: person.email,
      source: person.source,
      subject: person.subject,
      role: null,
    })
    .returning();
  return returned(rows, person.username);
}

async function setMemberships(db: Database, userId: string, memberships: DirectoryMemberships) {
  const dropped = memberships.groups.filter((g) => !memberships.heldIds.has(g.id)).map((g) => g.id);
  if (dropped.length > 0)
    await db
      .delete(groupMembers)
      .where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, dropped)));
  for (const groupId of memberships.heldIds)
    await db.insert(groupMembers).values({ groupId, userId }).onConflictDoNothing();
}
