// The `quotas` table: one row per scope, its guarantee and its limit. Only the quotas service
// writes it; the Quotas page, the metrics and the reconciler read it.
import { eq, quotas, type Database, type QuotaRow } from "@llmgw/db";
import type { ScopeQuota } from "@llmgw/domain";

export async function readQuotaRows(db: Database): Promise<QuotaRow[]> {
  return db.select().from(quotas);
}

export function scopeQuotaOf(row: QuotaRow): ScopeQuota {
  return { scope: row.scope, guarantee: row.guarantee, limit: row.limit };
}

export async function writeQuotaRow(
  db: Database,
  quota: ScopeQuota,
  updatedBy: string,
  at: Date,
): Promise<void> {
  const values = { ...quota, updatedAt: at, updatedBy };
  await db.insert(quotas).values(values).onConflictDoUpdate({ target: quotas.scope, set: values });
}

/** Deletes the scope's row; answers the row that was there, or null when there was none. */
export async function deleteQuotaRow(db: Database, scope: string): Promise<QuotaRow | null> {
  const [row] = await db.delete(quotas).where(eq(quotas.scope, scope)).returning();
  return row ?? null;
}
