// Who a person is when they call: their cluster role and their grants, direct and through groups.
import { eq, groupMembers, inArray, roleBindings, type Database, type UserRow } from "@llmgw/db";
import type { Grant, UserView } from "@llmgw/api";
import { clusterRole } from "@llmgw/domain";

export async function grantsOf(db: Database, userId: string): Promise<(Grant & { via: string })[]> {
  const memberships = await db
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(eq(groupMembers.userId, userId));
  const groupIds = memberships.map((m) => m.groupId);
  const direct = await db.select().from(roleBindings).where(eq(roleBindings.subjectId, userId));
  const viaGroups =
    groupIds.length === 0
      ? []
      : await db.select().from(roleBindings).where(inArray(roleBindings.subjectId, groupIds));
  return [
    ...direct.filter((b) => b.subjectKind === "user").map((b) => ({ ...b, via: "user" })),
    ...viaGroups.filter((b) => b.subjectKind === "group").map((b) => ({ ...b, via: "group" })),
  ].map((b) => ({ role: b.role, scope: b.scope, via: b.via }));
}

/** The caller as procedures see them; null when the person may not act (disabled, no role). */
export async function principalOf(db: Database, user: UserRow): Promise<UserView | null> {
  if (!user.isActive) return null;
  const grants = await grantsOf(db, user.id);
  const role = clusterRole(user.role, grants);
  if (!role) return null;
  return {
    id: user.id,
    username: user.username,
    role,
    displayName: user.displayName,
    source: user.source,
    locale: user.locale === "en" || user.locale === "tr" ? user.locale : null,
    grants: grants.map(({ role: r, scope }) => ({ role: r, scope })),
  };
}
