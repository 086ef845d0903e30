// The org → team → project tree and role grants: the PeopleService's other half.
import { randomUUID } from "node:crypto";
import { and, eq, orgUnits, roleBindings, users, groups, type Database } from "@llmgw/db";
import {
  ServiceError,
  type Actor,
  type CreateOrgUnitInput,
  type GrantRoleInput,
  type OrgUnitView,
  type RoleBindingView,
} from "@llmgw/api";
import { parseOwner } from "@llmgw/domain";
import { recordAudit } from "./audit";
import { findGroup, findUser } from "./people-lookup";
import { must } from "@llmgw/domain";

const PARENT_KIND = { org: null, team: "org", project: "team" } as const;

/** Refuses an owner that is not in the tree, naming it. */
export async function requireUnit(db: Database, owner: string): Promise<void> {
  const ref = parseOwner(owner);
  const rows = ref ? await db.select().from(orgUnits).where(eq(orgUnits.name, ref.name)) : [];
  if (!rows.some((row) => row.kind === ref?.kind))
    throw new ServiceError(
      "not_found",
      `${owner} is not in the org tree; add it first (llmgw ctl org add)`,
      { code: "org.unit_not_found", params: { owner } },
    );
}

export async function listUnits(db: Database): Promise<OrgUnitView[]> {
  const rows = await db.select().from(orgUnits);
  return rows
    .map((row) => ({ kind: row.kind, name: row.name, parent: row.parent }))
    .sort((a, b) => `${a.kind}:${a.name}`.localeCompare(`${b.kind}:${b.name}`));
}

export async function createUnit(db: Database, input: CreateOrgUnitInput, actor: Actor) {
  const wanted = PARENT_KIND[input.kind];
  const parentKind = input.parent ? parseOwner(input.parent)?.kind : null;
  if ((wanted ?? null) !== (parentKind ?? null))
    throw new ServiceError(
      "invalid",
      wanted
        ? `a ${input.kind} sits under a ${wanted}: give --parent ${wanted}:NAME`
        : "an org sits at the top of the tree and has no parent",
      wanted
        ? { code: "org.parent_required", params: { kind: input.kind, parentKind: wanted } }
        : { code: "org.org_has_no_parent" },
    );
  if (input.parent) await requireUnit(db, input.parent);
  const [taken] = await db
    .select()
    .from(orgUnits)
    .where(and(eq(orgUnits.kind, input.kind), eq(orgUnits.name, input.name)));
  if (taken)
    throw new ServiceError("conflict", `${input.kind}:${input.name} exists already`, {
      code: "org.unit_exists",
      params: { kind: input.kind, name: input.name },
    });
  await db
    .insert(orgUnits)
    .values({ id: randomUUID(), kind: input.kind, name: input.name, parent: input.parent ?? null });
  await recordAudit(db, {
    actor: actor.username,
    action: "org.create",
    target: `${input.kind}:${input.name}`,
    details: { parent: input.parent ?? null },
  });
  return { kind: input.kind, name: input.name, parent: input.parent ?? null };
}

export async function removeUnit(db: Database, owner: string, actor: Actor) {
  await requireUnit(db, owner);
  const children = await db.select().from(orgUnits).where(eq(orgUnits.parent, owner));
  if (children.length > 0)
    throw new ServiceError(
      "conflict",
      `${owner} still holds ${children.map((c) => `${c.kind}:${c.name}`).join(", ")}; remove those first`,
      {
        code: "org.unit_not_empty",
        params: { owner, children: children.map((c) => `${c.kind}:${c.name}`).join(", ") },
      },
    );
  const ref = must(parseOwner(owner), `the parsed owner ${owner}`);
  await db
    .delete(orgUnits)
    .where(and(eq(orgUnits.kind, ref.kind as "org"), eq(orgUnits.name, ref.name)));
  await db.delete(roleBindings).where(eq(roleBindings.scope, owner));
  await db.update(users).set({ homeOwner: null }).where(eq(users.homeOwner, owner));
  await recordAudit(db, { actor: actor.username, action: "org.remove", target: owner });
}

export async function listBindings(db: Database): Promise<RoleBindingView[]> {
  const rows = await db.select().from(roleBindings);
  const people = new Map(
    (await db.select({ id: users.id, name: users.username }).from(users)).map((u) => [
      u.id,
      u.name,
    ]),
  );
  const teams = new Map(
    (await db.select({ id: groups.id, name: groups.name }).from(groups)).map((g) => [g.id, g.name]),
  );
  return rows.map((row) => ({
    id: row.id,
    subjectKind: row.subjectKind,
    subject: (row.subjectKind === "user" ? people : teams).get(row.subjectId) ?? row.subjectId,
    role: row.role,
    scope: row.scope,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  }));
}

async function grantSubject(db: Database, input: GrantRoleInput) {
  if (input.user)
    return { kind: "user" as const, id: (await findUser(db, input.user)).id, name: input.user };
  // The input schema asks for exactly one of user and group.
  const name = must(input.group, "a grant's user or group");
  return { kind: "group" as const, id: (await findGroup(db, name)).id, name };
}

export async function grantRole(db: Database, input: GrantRoleInput, actor: Actor) {
  const subject = await grantSubject(db, input);
  if (input.scope !== "*") await requireUnit(db, input.scope);
  const [row] = await db
    .insert(roleBindings)
    .values({
      id: randomUUID(),
      subjectKind: subject.kind,
      subjectId: subject.id,
      role: input.role,
      scope: input.scope,
      createdBy: actor.username,
    })
    .onConflictDoNothing()
    .returning();
  if (!row)
    throw new ServiceError(
      "conflict",
      `${subject.kind} ${subject.name} already holds ${input.role} on ${input.scope}`,
      {
        code: "role.grant_exists",
        params: {
          subjectKind: subject.kind,
          subject: subject.name,
          role: input.role,
          scope: input.scope,
        },
      },
    );
  await recordAudit(db, {
    actor: actor.username,
    action: "role.grant",
    target: `${subject.kind}:${subject.name}`,
    details: { role: input.role, scope: input.scope },
  });
  return must(
    (await listBindings(db)).find((b) => b.id === row.id),
    `the new role binding ${row.id}`,
  );
}

export async function revokeGrant(db: Database, id: string, actor: Actor) {
  const [row] = await db.delete(roleBindings).where(eq(roleBindings.id, id)).returning();
  if (!row)
    throw new ServiceError("not_found", `no role grant with id "${id}"; see \`llmgw ctl roles\``, {
      code: "role.grant_not_found",
      params: { id },
    });
  await recordAudit(db, {
    actor: actor.username,
    action: "role.revoke",
    target: `${row.subjectKind}:${row.subjectId}`,
    details: { role: row.role, scope: row.scope },
  });
}
