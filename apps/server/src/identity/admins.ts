// The last way in: the one rule People and SCIM provisioning share, that nobody may take away the
// last active person holding the admin role.
import { and, eq, users, type Database, type UserRow } from "@llmgw/db";

/** True when `leaving` is an active admin and no other active admin exists. */
export async function isLastActiveAdmin(db: Database, leaving: UserRow): Promise<boolean> {
  if (leaving.role !== "admin" || !leaving.isActive) return false;
  const admins = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.isActive, true)));
  return admins.length <= 1;
}
