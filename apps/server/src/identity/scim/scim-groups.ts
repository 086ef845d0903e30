// SCIM Groups over the groups table. Members are people ids; roles come from grants an admin gives
// the group (`llmgw ctl roles grant --group NAME`).
import { randomUUID } from "node:crypto";
import {
  and,
  eq,
  groupMembers,
  groups,
  inArray,
  roleBindings,
  users,
  type Database,
  type GroupRow,
} from "@llmgw/db";
import { recordAudit } from "../audit";
import {
  asString,
  memberFilterPath,
  parsePatch,
  SCHEMA,
  ScimError,
  type EqFilter,
} from "./scim-protocol";

export async function groupResource(
  db: Database,
  group: GroupRow,
  base: string,
  withMembers = true,
) {
  const members = withMembers
    ? await db
        .select({ id: users.id, name: users.username })
        .from(groupMembers)
        .innerJoin(users, eq(users.id, groupMembers.userId))
        .where(eq(groupMembers.groupId, group.id))
    : [];
  return {
    schemas: [SCHEMA.group],
    id: group.id,
    displayName: group.name,
    ...(group.externalId && { externalId: group.externalId }),
    ...(withMembers && { members: members.map((m) => ({ value: m.id, display: m.name })) }),
    meta: {
      resourceType: "Group",
      created: group.createdAt.toISOString(),
      location: `${base}/Groups/${group.id}`,
    },
  };
}

function memberIds(value: unknown): string[] {
  if (!Array.isArray(value))
    throw new ScimError(400, "members must be an array of {value}", "invalidValue");
  return value.map((m) => asString((m as { value?: unknown }).value, "members.value", 100));
}

async function checkMembersExist(db: Database, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length)
    throw new ScimError(400, `no User with id ${missing.join(", ")}`, "invalidValue");
}

export async function findScimGroup(db: Database, id: string): Promise<GroupRow> {
  const [group] = await db.select().from(groups).where(eq(groups.id, id));
  if (!group) throw new ScimError(404, `no Group with id ${id}`);
  return group;
}

export async function listScimGroups(db: Database, filter: EqFilter | null): Promise<GroupRow[]> {
  if (!filter) return db.select().from(groups);
  if (filter.attribute === "displayname")
    return db.select().from(groups).where(eq(groups.name, filter.value));
  if (filter.attribute === "externalid")
    return db.select().from(groups).where(eq(groups.externalId, filter.value));
  if (filter.attribute === "id") return db.select().from(groups).where(eq(groups.id, filter.value));
  throw new ScimError(
    400,
    `filtering Groups by ${filter.attribute} is not supported (displayName, externalId, id)`,
    "invalidFilter",
  );
}

async function checkNameFree(db: Database, name: string, exceptId: string | null) {
  const [taken] = await db.select().from(groups).where(eq(groups.name, name));
  if (taken && taken.id !== exceptId)
    throw new ScimError(409, `a Group named ${name} exists already`, "uniqueness");
}

export async function createScimGroup(db: Database, body: unknown): Promise<GroupRow> {
  const b = (body ?? {}) as Record<string, unknown>;
  const name = asString(b.displayName, "displayName", 200);
  await checkNameFree(db, name, null);
  const externalId = b.externalId === undefined ? null : asString(b.externalId, "externalId");
  if (externalId) {
    const [same] = await db.select().from(groups).where(eq(groups.externalId, externalId));
    if (same)
      throw new ScimError(
        409,
        `a Group with externalId ${externalId} exists already`,
        "uniqueness",
      );
  }
  const members = b.members === undefined ? [] : memberIds(b.members);
  await checkMembersExist(db, members);
  const [row] = await db
    .insert(groups)
    .values({ id: randomUUID(), name, externalId, source: "scim" })
    .returning();
  for (const userId of members)
    await db.insert(groupMembers).values({ groupId: row!.id, userId }).onConflictDoNothing();
  await recordAudit(db, {
    actor: "scim",
    action: "group.create",
    target: name,
    details: { externalId, members: members.length },
  });
  return row!;
}

async function setMembers(db: Database, groupId: string, ids: string[], add: boolean) {
  await checkMembersExist(db, add ? ids : []);
  for (const userId of ids) {
    if (add) await db.insert(groupMembers).values({ groupId, userId }).onConflictDoNothing();
    else
      await db
        .delete(groupMembers)
        .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
  }
}

export async function patchScimGroup(db: Database, id: string, body: unknown): Promise<GroupRow> {
  const group = await findScimGroup(db, id);
  let name = group.name;
  let externalId = group.externalId;
  for (const op of parsePatch(body)) {
    const path = op.path?.trim() ?? null;
    const member = path ? memberFilterPath(path) : null;
    if (member) {
      if (op.op !== "remove")
        throw new ScimError(400, `${path} can only be removed`, "invalidPath");
      await setMembers(db, id, [member], false);
    } else if (path?.toLowerCase() === "members") {
      if (op.op === "replace") await db.delete(groupMembers).where(eq(groupMembers.groupId, id));
      if (op.op === "remove" && op.value === undefined)
        await db.delete(groupMembers).where(eq(groupMembers.groupId, id));
      else await setMembers(db, id, memberIds(op.value), op.op !== "remove");
    } else if (
      path === null ||
      path.toLowerCase() === "displayname" ||
      path.toLowerCase() === "externalid"
    ) {
      const values =
        path === null ? ((op.value ?? {}) as Record<string, unknown>) : { [path]: op.value };
      for (const [key, value] of Object.entries(values)) {
        if (key.toLowerCase() === "displayname") name = asString(value, "displayName", 200);
        else if (key.toLowerCase() === "externalid")
          externalId = op.op === "remove" ? null : asString(value, "externalId");
        else if (key.toLowerCase() === "members")
          await setMembers(db, id, memberIds(value), op.op !== "remove");
        else
          throw new ScimError(
            400,
            `path "${key}" is not a Group attribute this server keeps`,
            "invalidPath",
          );
      }
    } else
      throw new ScimError(
        400,
        `path "${path}" is not a Group attribute this server keeps`,
        "invalidPath",
      );
  }
  if (name !== group.name) await checkNameFree(db, name, id);
  const [row] = await db
    .update(groups)
    .set({ name, externalId })
    .where(eq(groups.id, id))
    .returning();
  await recordAudit(db, { actor: "scim", action: "group.update", target: name });
  return row!;
}

export async function replaceScimGroup(db: Database, id: string, body: unknown): Promise<GroupRow> {
  await findScimGroup(db, id);
  const b = (body ?? {}) as Record<string, unknown>;
  const name = asString(b.displayName, "displayName", 200);
  await checkNameFree(db, name, id);
  const members = b.members === undefined ? [] : memberIds(b.members);
  await checkMembersExist(db, members);
  await db.delete(groupMembers).where(eq(groupMembers.groupId, id));
  await setMembers(db, id, members, true);
  const externalId = b.externalId === undefined ? null : asString(b.externalId, "externalId");
  const [row] = await db
    .update(groups)
    .set({ name, externalId })
    .where(eq(groups.id, id))
    .returning();
  await recordAudit(db, { actor: "scim", action: "group.update", target: name });
  return row!;
}

export async function deleteScimGroup(db: Database, id: string): Promise<void> {
  const group = await findScimGroup(db, id);
  await db
    .delete(roleBindings)
    .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, id)));
  await db.delete(groups).where(eq(groups.id, id));
  await recordAudit(db, { actor: "scim", action: "group.remove", target: group.name });
}
