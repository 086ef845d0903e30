// The audit log: one row per identity, key or setting change. Fields that hold secrets are
// replaced before the row is written, so the log can be read (and exported) without leaking them.
// Reading it answers names where a row holds an id (a key, a revoked grant's person or group),
// and filters by actor and target (a name matches the rows that hold its id) in the query.
import {
  and,
  apiKeys,
  auditLog,
  desc,
  eq,
  groups,
  inArray,
  lt,
  or,
  sql,
  users,
  type Database,
} from "@llmgw/db";
import type { AuditEntry, AuditQueryInput, AuditService } from "@llmgw/api";
import { isStoreAway } from "../store-queue";
import { auditQueueOf } from "./audit-queue";

const SECRET_FIELD = /(secret|password|token|credential|private|bindpw|^key$|apikey)/i;
export const REDACTED = "[redacted]";

/** A copy with every secret-looking field (at any depth) replaced by a marker. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([name, inner]) => [
      name,
      SECRET_FIELD.test(name) && inner !== null && inner !== undefined && inner !== ""
        ? REDACTED
        : redact(inner),
    ]),
  );
}

type Writer = Pick<Database, "insert">;

export async function recordAudit(
  db: Writer,
  entry: { actor: string; action: string; target?: string; details?: Record<string, unknown> },
): Promise<void> {
  const row = {
    actor: entry.actor,
    action: entry.action,
    target: entry.target ?? "",
    details: redact(entry.details ?? {}) as Record<string, unknown>,
  };
  const queue = auditQueueOf(db);
  // Rows already waiting for the store go first: a new one joins them, keeping the order.
  if (queue && queue.size() > 0) {
    queue.add({ ...row, at: new Date() });
    return;
  }
  try {
    await db.insert(auditLog).values(row);
  } catch (error) {
    if (!queue || !isStoreAway(error)) throw error;
    // The change it records is made; the row is kept with the moment it happened.
    queue.add({ ...row, at: new Date() });
  }
}

/** `%text%` for ILIKE, with the pattern's own wildcards taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const contains = (column: typeof auditLog.actor | typeof auditLog.target, text: string) =>
  sql`${column} ILIKE ${containing(text)} ESCAPE '\\'`;

/**
 * Readable names for ids some rows name their target by: a key's id (key.create/revoke) and a
 * role grant's `user:<id>` / `group:<id>` (role.revoke). A key reads as its prefix and owner.
 */
async function namesById(db: Database): Promise<Map<string, string>> {
  const [keys, people, teams] = await Promise.all([
    db.select({ id: apiKeys.id, prefix: apiKeys.prefix, owner: apiKeys.owner }).from(apiKeys),
    db.select({ id: users.id, name: users.username }).from(users),
    db.select({ id: groups.id, name: groups.name }).from(groups),
  ]);
  return new Map([
    ...keys.map((k) => [k.id, `${k.prefix}… (${k.owner})`] as const),
    ...people.map((u) => [`user:${u.id}`, `user:${u.name}`] as const),
    ...teams.map((g) => [`group:${g.id}`, `group:${g.name}`] as const),
  ]);
}

/** Rows whose target contains the text, or names a key, person or group whose name does. */
function targetFilter(names: Map<string, string>, text: string) {
  const needle = text.toLowerCase();
  const ids = [...names]
    .filter(([, name]) => name.toLowerCase().includes(needle))
    .map(([id]) => id);
  return ids.length > 0
    ? or(contains(auditLog.target, text), inArray(auditLog.target, ids))
    : contains(auditLog.target, text);
}

export function createAuditService(db: Database): AuditService {
  return {
    async list(input: AuditQueryInput): Promise<AuditEntry[]> {
      const names = await namesById(db);
      const where = and(
        input.beforeId ? lt(auditLog.id, input.beforeId) : undefined,
        input.action ? eq(auditLog.action, input.action) : undefined,
        input.actor ? contains(auditLog.actor, input.actor) : undefined,
        input.target ? targetFilter(names, input.target) : undefined,
      );
      const rows = await db
        .select()
        .from(auditLog)
        .where(where)
        .orderBy(desc(auditLog.id))
        .limit(input.limit);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: names.get(`user:${row.actor}`)?.slice("user:".length) ?? row.actor,
        action: row.action,
        target: row.target,
        targetName: names.get(row.target) ?? row.target,
        details: row.details,
      }));
    },
  };
}
