// A person or a group by id or by name, refused as not found with where to look: shared by the
// people and group half and the org tree's grants.
import { eq, groups, users, type Database, type GroupRow, type UserRow } from "@llmgw/db";
import { ServiceError } from "@llmgw/api";

export async function findUser(db: Database, idOrName: string): Promise<UserRow> {
  const [byId] = await db.select().from(users).where(eq(users.id, idOrName));
  const [byName] = byId ? [] : await db.select().from(users).where(eq(users.username, idOrName));
  const user = byId ?? byName;
  if (!user)
    throw new ServiceError("not_found", `no person "${idOrName}"; see \`llmgw ctl users\``, {
      code: "person.not_found",
      params: { name: idOrName },
    });
  return user;
}

export async function findGroup(db: Database, idOrName: string): Promise<GroupRow> {
  const [byId] = await db.select().from(groups).where(eq(groups.id, idOrName));
  const [byName] = byId ? [] : await db.select().from(groups).where(eq(groups.name, idOrName));
  const group = byId ?? byName;
  if (!group)
    throw new ServiceError("not_found", `no group "${idOrName}"; see \`llmgw ctl groups\``, {
      code: "group.not_found",
      params: { name: idOrName },
    });
  return group;
}
