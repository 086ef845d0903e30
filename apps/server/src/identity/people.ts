// People and groups: the PeopleService's person and group halves. Every change is audited; a
// person who is disabled or removed loses their sessions at once.
import { randomUUID } from "node:crypto";
import {
  and,
  eq,
  groupMembers,
  groups,
  roleBindings,
  sessions,
  users,
  type Database,
  type GroupRow,
  type UserRow,
} from "@llmgw/db";
import {
  ServiceError,
  type Actor,
  type CreateGroupInput,
  type CreatePersonInput,
  type GroupView,
  type PersonView,
  type UpdatePersonInput,
} from "@llmgw/api";
import { clusterRole } from "@llmgw/domain";
import { hashPassword } from "./passwords";
import { isLastActiveAdmin } from "./admins";
import { recordAudit } from "./audit";
import { grantsOf } from "./principal";
import { requireUnit } from "./org-tree";
import { findGroup, findUser } from "./people-lookup";
import { must } from "@llmgw/domain";

export async function personView(db: Database, user: UserRow): Promise<PersonView> {
  const grants = await grantsOf(db, user.id);
  const memberOf = await db
    .select({ name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groupMembers.userId, user.id));
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    email: user.email,
    source: user.source,
    isActive: user.isActive,
    directRole: user.role,
    role: clusterRole(user.role, grants),
    groups: memberOf.map((g) => g.name).sort(),
    grants,
    homeOwner: user.homeOwner,
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** An admin may not take away the last way in: the last active person with the admin role. */
async function keepAnAdmin(db: Database, leaving: UserRow): Promise<void> {
  if (await isLastActiveAdmin(db, leaving))
    throw new ServiceError(
      "conflict",
      `"${leaving.username}" is the last active admin; make someone else an admin first`,
      { code: "person.last_admin", params: { username: leaving.username } },
    );
}

export async function createPerson(db: Database, input: CreatePersonInput, actor: Actor) {
  const [taken] = await db.select().from(users).where(eq(users.username, input.username));
  if (taken)
    throw new ServiceError("conflict", `a person named "${input.username}" exists already`, {
      code: "person.exists",
      params: { username: input.username },
    });
  if (input.homeOwner) await requireUnit(db, input.homeOwner);
  const [row] = await db
    .insert(users)
    .values({
      id: randomUUID(),
      username: input.username,
      displayName: input.displayName ?? "",
      email: input.email ?? null,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      role: input.role ?? "viewer",
      homeOwner: input.homeOwner ?? null,
    })
    .returning();
  const created = must(row, `the inserted person ${input.username}`);
  await recordAudit(db, {
    actor: actor.username,
    action: "user.create",
    target: input.username,
    details: { role: created.role, homeOwner: created.homeOwner, password: input.password ?? null },
  });
  return personView(db, created);
}

export async function updatePerson(db: Database, input: UpdatePersonInput, actor: Actor) {
  const user = await findUser(db, input.id);
  const losesAdmin =
    (input.role !== undefined && input.role !== "admin") || input.isActive === false;
  if (losesAdmin) await keepAnAdmin(db, user);
  if (input.homeOwner) await requireUnit(db, input.homeOwner);
  const [row] = await db
    .update(users)
    .set({
      ...(input.role !== undefined && { role: input.role }),
      ...(input.isActive !== undefined && { isActive: input.isActive }),
      ...(input.displayName !== undefined && { displayName: input.displayName }),
      ...(input.homeOwner !== undefined && { homeOwner: input.homeOwner }),
      ...(input.password !== undefined && { passwordHash: await hashPassword(input.password) }),
    })
    .where(eq(users.id, user.id))
    .returning();
  if (input.isActive === false) await db.delete(sessions).where(eq(sessions.userId, user.id));
  const { id: _id, ...changes } = input;
  await recordAudit(db, {
    actor: actor.username,
    action: "user.update",
    target: user.username,
    details: changes,
  });
  return personView(db, must(row, `the updated person ${user.username}`));
}

export async function removePerson(db: Database, id: string, actor: Actor) {
  const user = await findUser(db, id);
  await keepAnAdmin(db, user);
  await db
    .delete(roleBindings)
    .where(and(eq(roleBindings.subjectKind, "user"), eq(roleBindings.subjectId, user.id)));
  await db.delete(users).where(eq(users.id, user.id));
  await recordAudit(db, { actor: actor.username, action: "user.remove", target: user.username });
}

export async function signOutPerson(db: Database, id: string, actor: Actor) {
  const user = await findUser(db, id);
  const ended = await db.delete(sessions).where(eq(sessions.userId, user.id)).returning();
  await recordAudit(db, {
    actor: actor.username,
    action: "user.sign-out",
    target: user.username,
    details: { ended: ended.length },
  });
  return ended.length;
}

export async function groupView(db: Database, group: GroupRow): Promise<GroupView> {
  const members = await db
    .select({ username: users.username })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, group.id));
  const grants = await db
    .select({ role: roleBindings.role, scope: roleBindings.scope })
    .from(roleBindings)
    .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, group.id)));
  return {
    id: group.id,
    name: group.name,
    source: group.source,
    externalId: group.externalId,
    members: members.map((m) => m.username).sort(),
    grants,
  };
}

export async function createGroup(db: Database, input: CreateGroupInput, actor: Actor) {
  const [byName] = await db.select().from(groups).where(eq(groups.name, input.name));
  if (byName)
    throw new ServiceError("conflict", `a group named "${input.name}" exists already`, {
      code: "group.exists",
      params: { name: input.name },
    });
  if (input.externalId) {
    const [byExternal] = await db
      .select()
      .from(groups)
      .where(eq(groups.externalId, input.externalId));
    if (byExternal)
      throw new ServiceError(
        "conflict",
        `group "${byExternal.name}" already stands for ${input.externalId}`,
        {
          code: "group.external_taken",
          params: { name: byExternal.name, externalId: input.externalId },
        },
      );
  }
  const [row] = await db
    .insert(groups)
    .values({ id: randomUUID(), name: input.name, externalId: input.externalId ?? null })
    .returning();
  await recordAudit(db, {
    actor: actor.username,
    action: "group.create",
    target: input.name,
    details: { externalId: input.externalId ?? null },
  });
  return groupView(db, must(row, `the inserted group ${input.name}`));
}

export async function removeGroup(db: Database, id: string, actor: Actor) {
  const group = await findGroup(db, id);
  await db
    .delete(roleBindings)
    .where(and(eq(roleBindings.subjectKind, "group"), eq(roleBindings.subjectId, group.id)));
  await db.delete(groups).where(eq(groups.id, group.id));
  await recordAudit(db, { actor: actor.username, action: "group.remove", target: group.name });
}

export async function setMember(
  db: Database,
  groupName: string,
  username: string,
  isMember: boolean,
  actor: Actor,
) {
  const group = await findGroup(db, groupName);
  const user = await findUser(db, username);
  if (isMember)
    await db
      .insert(groupMembers)
      .values({ groupId: group.id, userId: user.id })
      .onConflictDoNothing();
  else
    await db
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.userId, user.id)));
  await recordAudit(db, {
    actor: actor.username,
    action: isMember ? "group.add-member" : "group.remove-member",
    target: group.name,
    details: { username: user.username },
  });
  return groupView(db, group);
}
