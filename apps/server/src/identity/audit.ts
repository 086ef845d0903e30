// The audit log: one row per identity, key or setting change. Fields that hold secrets are
// replaced before the row is written, so the log can be read (and exported) without leaking them.
import { and, auditLog, desc, eq, lt, type Database } from "@llmgw/db";
import type { AuditEntry, AuditQueryInput, AuditService } from "@llmgw/api";

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
  await db.insert(auditLog).values({
    actor: entry.actor,
    action: entry.action,
    target: entry.target ?? "",
    details: redact(entry.details ?? {}) as Record<string, unknown>,
  });
}

export function createAuditService(db: Database): AuditService {
  return {
    async list(input: AuditQueryInput): Promise<AuditEntry[]> {
      const where = and(
        input.beforeId ? lt(auditLog.id, input.beforeId) : undefined,
        input.action ? eq(auditLog.action, input.action) : undefined,
        input.actor ? eq(auditLog.actor, input.actor) : undefined,
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
        actor: row.actor,
        action: row.action,
        target: row.target,
        details: row.details,
      }));
    },
  };
}
