// SCIM Groups over the groups table. Members are people ids; roles come from grants an admin gives
// the group (`llmgw ctl roles grant --group NAME`). The token sees only groups SCIM made, and only
// the people SCIM made inside them: a local or directory group answers 404, a member id that is
// not a provisioned person is refused by name, and a local member an admin put into a provisioned
// group stays there whatever SCIM replaces. So no SCIM request can grant a role through a group an
// admin made, nor take one away from someone SCIM does not manage.
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
import { asString, memberFilterPath, parsePatch, SCHEMA, type EqFilter } from "./scim-protocol";
import { ScimError } from "../errors";
import { must } from "@llmgw/domain";

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
        .where(and(eq(groupMembers.groupId, group.id), eq(users.source, "scim")))
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

/** Ids of people SCIM made; members may only ever be these. */
async function provisionedPeople(db: Database, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.source, "scim")));
  return new Set(found.map((f) => f.id));
}

/** A member that is not a provisioned person (a local account, a group, nothing) is refused. */
async function checkMembersProvisioned(db: Database, ids: string[]): Promise<void> {
  const found = await provisionedPeople(db, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw new ScimError(
      400,
      `members: no User with id ${missing.join(", ")}; a member must be a User made through SCIM`,
      "invalidValue",
    );
}

type Condition = ReturnType<typeof eq>;
/** Groups SCIM made; every query of this file that reads or changes a group goes through it. */
const provisioned = (condition?: Condition) => and(eq(groups.source, "scim"), condition);

export async function findScimGroup(db: Database, id: string): Promise<GroupRow> {
  const [group] = await db
    .select()
    .from(groups)
    .where(provisioned(eq(groups.id, id)));
  if (!group) throw new ScimError(404, `no Group with id ${id}`);
  return group;
}

function groupCondition(filter: EqFilter): Condition {
  if (filter.attribute === "displayname") return eq(groups.name, filter.value);
  if (filter.attribute === "externalid") return eq(groups.externalId, filter.value);
  if (filter.attribute === "id") return eq(groups.id, filter.value);
  throw new ScimError(
    400,
    `filtering Groups by ${filter.attribute} is not supported (displayName, externalId, id)`,
    "invalidFilter",
  );
}

export async function listScimGroups(db: Database, filter: EqFilter | null): Promise<GroupRow[]> {
  return db
    .select()
    .from(groups)
    .where(provisioned(filter ? groupCondition(filter) : undefined));
}

/** Names and external ids are unique across every source; a clash with another source says only that. */
async function checkFree(
  db: Database,
  what: { name?: string; externalId?: string | null },
  exceptId: string | null,
) {
  for (const [label, condition] of [
    ["displayName", what.name === undefined ? undefined : eq(groups.name, what.name)],
    ["externalId", what.externalId ? eq(groups.externalId, what.externalId) : undefined],
  ] as const) {
    if (!condition) continue;
    const [taken] = await db.select().from(groups).where(condition);
    if (!taken || taken.id === exceptId) continue;
    const value = label === "displayName" ? what.name : what.externalId;
    throw new ScimError(
      409,
      taken.source === "scim"
        ? `a Group with ${label} ${value} exists already`
        : `the ${label} ${value} belongs to a group provisioning does not manage; an admin must rename or remove it on People first`,
      "uniqueness",
    );
  }
}

/** Takes every provisioned person out of a group; members an admin added by hand stay. */
async function clearProvisionedMembers(db: Database, groupId: string): Promise<void> {
  const present = await db
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(and(eq(groupMembers.groupId, groupId), eq(users.source, "scim")));
  if (present.length === 0) return;
  await db.delete(groupMembers).where(
    and(
      eq(groupMembers.groupId, groupId),
      inArray(
        groupMembers.userId,
        present.map((p) => p.userId),
      ),
    ),
  );
}

export async function createScimGroup(db: Database, body: unknown): Promise<GroupRow> {
  const b = (body ?? {}) as Record<string, unknown>;
  const name = asString(b.displayName, "displayName", 200);
  const externalId = b.externalId === undefined ? null : asString(b.externalId, "externalId");
  await checkFree(db, { name, externalId }, null);
  const members = b.members === undefined ? [] : memberIds(b.members);
  await checkMembersProvisioned(db, members);
  const [row] = await db
    .insert(groups)
    .values({ id: randomUUID(), name, externalId, source: "scim" })
    .returning();
  const created = must(row, `the inserted group ${name}`);
  for (const userId of members)
    await db.insert(groupMembers).values({ groupId: created.id, userId }).onConflictDoNothing();
  await recordAudit(db, {
    actor: "scim",
    action: "group.create",
    target: name,
    details: { externalId, members: members.length },
  });
  return created;
}

async function setMembers(db: Database, groupId: string, ids: string[], add: boolean) {
  if (add) await checkMembersProvisioned(db, ids);
  // A removal naming someone SCIM does not manage changes nothing, as for an id that is unknown.
  const allowed = add ? new Set(ids) : await provisionedPeople(db, ids);
  for (const userId of ids) {
    if (!allowed.has(userId)) continue;
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
      if (op.op === "replace") await clearProvisionedMembers(db, id);
      if (op.op === "remove" && op.value === undefined) await clearProvisionedMembers(db, id);
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
  await checkFree(
    db,
    {
      ...(name !== group.name && { name }),
      ...(externalId !== group.externalId && { externalId }),
    },
    id,
  );
  return saveGroup(db, id, name, externalId);
}

async function saveGroup(db: Database, id: string, name: string, externalId: string | null) {
  const [row] = await db
    .update(groups)
    .set({ name, externalId })
    .where(provisioned(eq(groups.id, id)))
    .returning();
  if (!row) throw new ScimError(404, `no Group with id ${id}`);
  await recordAudit(db, { actor: "scim", action: "group.update", target: name });
  return row;
}

export async function replaceScimGroup(db: Database, id: string, body: unknown): Promise<GroupRow> {
  await findScimGroup(db, id);
  const b = (body ?? {}) as Record<string, unknown>;
  const name = asString(b.displayName, "displayName", 200);
  const externalId = b.externalId === undefined ? null : asString(b.externalId, "externalId");
  await checkFree(db, { name, externalId }, id);
  const members = b.members === undefined ? [] : memberIds(b.members);
  await checkMembersProvisioned(db, members);
  await clearProvisionedMembers(db, id);
  await setMembers(db, id, members, true);
  return saveGroup(db, id, name, externalId);
}

export async function deleteScimGroup(db: Database, id: string): Promise<void> {
  const group = await findScimGroup(db, id);
  await db
    .delete(roleBindings)
    .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, id)));
  await db.delete(groups).where(provisioned(eq(groups.id, id)));
  await recordAudit(db, { actor: "scim", action: "group.remove", target: group.name });
}
