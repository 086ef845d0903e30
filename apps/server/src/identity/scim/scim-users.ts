// SCIM Users over the people table. Provisioned people have no password and no role of their own:
// they sign in through Entra ID and hold what their groups are granted. The token sees only people
// SCIM itself made (source `scim`): a local, Active Directory or Entra sign-in account is absent
// from every list and answers 404, so a leaked token cannot read, rename, disable or delete it.
import { randomUUID } from "node:crypto";
import { and, eq, sessions, users, type Database, type UserRow } from "@llmgw/db";
import { isLastActiveAdmin } from "../admins";
import { recordAudit } from "../audit";
import { asBoolean, asString, parsePatch, SCHEMA, type EqFilter } from "./scim-protocol";
import { ScimError } from "../errors";
import { must } from "@llmgw/domain";

const USERNAME = /^[A-Za-z0-9._@-]{1,100}$/;

export function userResource(user: UserRow, base: string) {
  return {
    schemas: [SCHEMA.user],
    id: user.id,
    ...(user.externalId && { externalId: user.externalId }),
    userName: user.username,
    displayName: user.displayName,
    name: { formatted: user.displayName },
    emails: user.email ? [{ value: user.email, type: "work", primary: true }] : [],
    active: user.isActive,
    meta: {
      resourceType: "User",
      created: user.createdAt.toISOString(),
      lastModified: user.createdAt.toISOString(),
      location: `${base}/Users/${user.id}`,
    },
  };
}

interface UserFields {
  username?: string;
  externalId?: string | null;
  displayName?: string;
  email?: string | null;
  isActive?: boolean;
}

function userName(value: unknown): string {
  const name = asString(value, "userName", 100);
  if (!USERNAME.test(name))
    throw new ScimError(
      400,
      "userName may hold letters, digits and . _ @ - (at most 100)",
      "invalidValue",
    );
  return name.toLowerCase();
}

function primaryEmail(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  const emails = value as { value?: unknown; primary?: unknown }[];
  const chosen = emails.find((e) => e.primary === true || e.primary === "True") ?? emails[0];
  return chosen ? asString(chosen.value, "emails.value", 320) : null;
}

function nameOf(body: Record<string, unknown>): string | undefined {
  if (typeof body.displayName === "string") return body.displayName.slice(0, 200);
  const name = body.name as
    { formatted?: unknown; givenName?: unknown; familyName?: unknown } | undefined;
  if (typeof name?.formatted === "string") return name.formatted.slice(0, 200);
  const parts = [name?.givenName, name?.familyName].filter(
    (p): p is string => typeof p === "string",
  );
  return parts.length ? parts.join(" ").slice(0, 200) : undefined;
}

/** Fields from a full resource (POST, PUT). */
export function fieldsFromResource(body: unknown): UserFields & { username: string } {
  if (!body || typeof body !== "object")
    throw new ScimError(400, "the body must be a JSON object", "invalidSyntax");
  const b = body as Record<string, unknown>;
  return {
    username: userName(b.userName),
    externalId: b.externalId === undefined ? null : asString(b.externalId, "externalId"),
    displayName: nameOf(b) ?? "",
    email: primaryEmail(b.emails),
    isActive: b.active === undefined ? true : asBoolean(b.active, "active"),
  };
}

/** Applies one PATCH value at one path (or, path-less, an object of attributes). */
function patchField(fields: UserFields, path: string | null, value: unknown, op: string): void {
  if (path === null) {
    if (!value || typeof value !== "object")
      throw new ScimError(400, "a PATCH without a path needs an object value", "invalidValue");
    for (const [key, inner] of Object.entries(value as Record<string, unknown>))
      patchField(fields, key, inner, op);
    return;
  }
  const key = path.trim().toLowerCase();
  const removing = op === "remove";
  if (key === "active") fields.isActive = removing ? false : asBoolean(value, "active");
  else if (key === "username") fields.username = userName(value);
  else if (key === "externalid")
    fields.externalId = removing ? null : asString(value, "externalId");
  else if (key === "displayname" || key === "name.formatted")
    fields.displayName = removing ? "" : asString(value, path, 200);
  else if (key.startsWith("emails"))
    fields.email = removing
      ? null
      : Array.isArray(value)
        ? primaryEmail(value)
        : asString(value, path, 320);
  else if (
    key.startsWith("name.") ||
    key.startsWith("urn:") ||
    key === "title" ||
    key === "preferredlanguage"
  ) {
    // Attributes this product does not keep are accepted and dropped, as RFC 7644 allows.
  } else
    throw new ScimError(
      400,
      `path "${path}" is not a User attribute this server keeps`,
      "invalidPath",
    );
}

export function fieldsFromPatch(body: unknown): UserFields {
  const fields: UserFields = {};
  for (const op of parsePatch(body)) patchField(fields, op.path, op.value, op.op);
  return fields;
}

type Condition = ReturnType<typeof eq>;
/** People SCIM made; every query of this file that reads or changes a person goes through it. */
const provisioned = (condition?: Condition) => and(eq(users.source, "scim"), condition);

export async function findScimUser(db: Database, id: string): Promise<UserRow> {
  const [user] = await db
    .select()
    .from(users)
    .where(provisioned(eq(users.id, id)));
  if (!user) throw new ScimError(404, `no User with id ${id}`);
  return user;
}

function userCondition(filter: EqFilter): Condition {
  if (filter.attribute === "username") return eq(users.username, filter.value.toLowerCase());
  if (filter.attribute === "externalid") return eq(users.externalId, filter.value);
  if (filter.attribute === "id") return eq(users.id, filter.value);
  throw new ScimError(
    400,
    `filtering Users by ${filter.attribute} is not supported (userName, externalId, id)`,
    "invalidFilter",
  );
}

export async function listScimUsers(db: Database, filter: EqFilter | null): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(provisioned(filter ? userCondition(filter) : undefined));
}

async function checkNameFree(db: Database, username: string | undefined, exceptId: string | null) {
  if (!username) return;
  const [taken] = await db.select().from(users).where(eq(users.username, username));
  if (!taken || taken.id === exceptId) return;
  // The name is unique across every source, so a clash must be refused; the answer says no more
  // about an account provisioning does not manage than that its name is taken.
  throw new ScimError(
    409,
    taken.source === "scim"
      ? `a User with userName ${username} exists already`
      : `the userName ${username} belongs to an account provisioning does not manage; an admin must rename or remove it on People first`,
    "uniqueness",
  );
}

/** Provisioning may not take away the last way in, as an admin on People may not. */
async function keepAnAdmin(db: Database, leaving: UserRow): Promise<void> {
  if (await isLastActiveAdmin(db, leaving))
    throw new ScimError(
      409,
      `${leaving.username} is the last active admin; an admin must make someone else an admin first`,
      "mutability",
    );
}

export async function createScimUser(
  db: Database,
  fields: UserFields & { username: string },
): Promise<UserRow> {
  await checkNameFree(db, fields.username, null);
  const [row] = await db
    .insert(users)
    .values({
      id: randomUUID(),
      username: fields.username,
      displayName: fields.displayName ?? "",
      email: fields.email ?? null,
      externalId: fields.externalId ?? null,
      isActive: fields.isActive ?? true,
      source: "scim",
      role: null,
    })
    .returning();
  const created = must(row, `the inserted user ${fields.username}`);
  await recordAudit(db, {
    actor: "scim",
    action: "user.create",
    target: created.username,
    details: { externalId: created.externalId },
  });
  return created;
}

export async function updateScimUser(
  db: Database,
  id: string,
  fields: UserFields,
): Promise<UserRow> {
  const user = await findScimUser(db, id);
  await checkNameFree(db, fields.username, id);
  if (fields.isActive === false) await keepAnAdmin(db, user);
  const [row] = await db
    .update(users)
    .set({
      ...(fields.username !== undefined && { username: fields.username }),
      ...(fields.displayName !== undefined && { displayName: fields.displayName }),
      ...(fields.email !== undefined && { email: fields.email }),
      ...(fields.externalId !== undefined && { externalId: fields.externalId }),
      ...(fields.isActive !== undefined && { isActive: fields.isActive }),
    })
    .where(provisioned(eq(users.id, id)))
    .returning();
  if (!row) throw new ScimError(404, `no User with id ${id}`);
  // Soft delete: a deactivated person is signed out everywhere at once.
  if (fields.isActive === false) await db.delete(sessions).where(eq(sessions.userId, id));
  await recordAudit(db, {
    actor: "scim",
    action: fields.isActive === false ? "user.deactivate" : "user.update",
    target: user.username,
    details: { ...fields },
  });
  return row;
}

export async function deleteScimUser(db: Database, id: string): Promise<void> {
  const user = await findScimUser(db, id);
  await keepAnAdmin(db, user);
  await db.delete(users).where(provisioned(eq(users.id, id)));
  await recordAudit(db, { actor: "scim", action: "user.remove", target: user.username });
}
