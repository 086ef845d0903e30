// The levels above a grant subject, from the ownership tree: for `key:<id>` the whole chain of
// the key's owner, for anything else the owner's chain without itself.
import { and, apiKeys, eq, orgUnits, users, type Database } from "@llmgw/db";
import { ServiceError } from "@llmgw/api";
import { MCP_KEY_SUBJECT_PREFIX, parseOwner, type OwnershipResolver } from "@llmgw/domain";

export interface LevelDeps {
  db: Database;
  ownership: OwnershipResolver;
}

async function keyOwner(db: Database, id: string): Promise<string | null> {
  const [row] = await db
    .select({ owner: apiKeys.owner, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.id, id));
  return row ? row.owner : null;
}

/** The levels above `subject`, top first. An unknown key has none. */
export async function levelsAbove(deps: LevelDeps, subject: string): Promise<string[]> {
  if (subject.startsWith(MCP_KEY_SUBJECT_PREFIX)) {
    const owner = await keyOwner(deps.db, subject.slice(MCP_KEY_SUBJECT_PREFIX.length));
    return owner ? deps.ownership.chain(owner) : [];
  }
  const chain = await deps.ownership.chain(subject);
  return chain.filter((level) => level !== subject);
}

/**
 * An org, team or project is there when the tree holds it, or when a key or a person already
 * sits under it (keys made before the tree was set up name their owner freely).
 */
async function unitKnown(db: Database, kind: "org" | "team" | "project", name: string) {
  const owner = `${kind}:${name}`;
  const [unit] = await db
    .select({ id: orgUnits.id })
    .from(orgUnits)
    .where(and(eq(orgUnits.kind, kind), eq(orgUnits.name, name)));
  if (unit) return true;
  const [key] = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.owner, owner));
  if (key) return true;
  const [person] = await db.select({ id: users.id }).from(users).where(eq(users.homeOwner, owner));
  return person !== undefined;
}

/** A grant to a key, person or unit that is not there is refused, not reported as done. */
export async function requireSubject(db: Database, subject: string): Promise<void> {
  if (subject.startsWith(MCP_KEY_SUBJECT_PREFIX)) {
    const id = subject.slice(MCP_KEY_SUBJECT_PREFIX.length);
    const [row] = await db
      .select({ revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.id, id));
    if (!row)
      throw new ServiceError(
        "not_found",
        `no API key with id "${id}"; see \`llmgw ctl keys list\` for the ids`,
        { code: "key.not_found", params: { id } },
      );
    if (row.revokedAt)
      throw new ServiceError("invalid", `API key "${id}" was revoked; grant to a live key`, {
        code: "key.revoked",
        params: { id },
      });
    return;
  }
  if (subject.startsWith("user:")) {
    const name = subject.slice("user:".length);
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, name));
    if (!row)
      throw new ServiceError("not_found", `no person named "${name}" is known here`, {
        code: "person.not_found",
        params: { name },
      });
  }
  const ref = parseOwner(subject);
  if (ref && ref.kind !== "user" && !(await unitKnown(db, ref.kind, ref.name)))
    throw new ServiceError(
      "not_found",
      `no ${ref.kind} named "${ref.name}" is known here (it is not in the tree, and no key or ` +
        `person belongs to it); add it first with \`llmgw ctl org add ${subject}\``,
      { code: "org.subject_unknown", params: { kind: ref.kind, name: ref.name, subject } },
    );
}
