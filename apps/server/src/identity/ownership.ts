// The OwnershipResolver over the org → team → project tree in the store. Keys and MCP grants ask
// it for an owner's chain to decide who may manage or use what. People sit under their home unit.
import { eq, orgUnits, users, type Database } from "@llmgw/db";
import { formatOwner, parseOwner, type OwnershipResolver } from "@llmgw/domain";

const DEPTH_MAX = 8;

export function createOwnershipResolver(db: Database): OwnershipResolver {
  const parentOf = async (owner: string): Promise<string | null> => {
    const ref = parseOwner(owner);
    if (!ref || ref.kind === "user") return null;
    const rows = await db
      .select({ kind: orgUnits.kind, name: orgUnits.name, parent: orgUnits.parent })
      .from(orgUnits)
      .where(eq(orgUnits.name, ref.name));
    return rows.find((row) => row.kind === ref.kind)?.parent ?? null;
  };
  return {
    async chain(owner: string): Promise<string[]> {
      const ref = parseOwner(owner);
      if (!ref) return [owner];
      const self = formatOwner(ref);
      const chain = [self];
      let next: string | null;
      if (ref.kind === "user") {
        const [person] = await db
          .select({ home: users.homeOwner })
          .from(users)
          .where(eq(users.username, ref.name));
        next = person?.home ?? null;
      } else {
        next = await parentOf(self);
      }
      // A loop in the tree (which creation refuses) must not hang a request: the depth is capped.
      while (next && chain.length < DEPTH_MAX && !chain.includes(next)) {
        chain.unshift(next);
        next = await parentOf(next);
      }
      return chain;
    },
  };
}
