// Reading and writing the catalog's rows. Kept apart from the store's swap logic so each write is
// one transaction: the model row and its audit row land together or not at all.
import { auditLog, eq, models, type Database, type ModelRow } from "@llmgw/db";
import {
  createCatalog,
  parseModelDefinition,
  type Catalog,
  type ModelDefinition,
} from "@llmgw/domain";
import type { CatalogEntryMeta } from "./catalog-store";

export interface CatalogState {
  catalog: Catalog;
  meta: ReadonlyMap<string, CatalogEntryMeta>;
}

export interface AuditEntry {
  actor: string;
  action:
    "model.add" | "model.change" | "model.remove" | "model.fallbacks" | "model.key" | "model.owner";
  target: string;
  details: Record<string, unknown>;
}

function metaOf(
  row: Pick<ModelRow, "revision" | "fallbacks" | "updatedAt" | "updatedBy" | "externalKeySealed">,
): CatalogEntryMeta {
  return {
    revision: row.revision,
    fallbacks: [...row.fallbacks],
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
    externalKeySealed: row.externalKeySealed,
  };
}

/**
 * Every stored model that still validates. A row written by an older llmgw whose rules have since
 * tightened is left out with a log line rather than stopping the server: the rest of the fleet
 * keeps serving, and the operator sees which model to fix.
 */
export async function loadCatalogState(
  db: Database,
  log: (line: string) => void,
): Promise<CatalogState> {
  const rows = await db.select().from(models);
  const valid: ModelDefinition[] = [];
  const meta = new Map<string, CatalogEntryMeta>();
  for (const row of rows) {
    const parsed = parseModelDefinition(row.definition);
    if (!parsed.ok) {
      log(
        `catalog: model "${row.name}" in the store no longer validates and is left out: ${parsed.errors.join("; ")}`,
      );
      continue;
    }
    valid.push(parsed.model);
    meta.set(parsed.model.name, metaOf(row));
  }
  const built = createCatalog(valid, 1);
  if (!built.ok)
    throw new Error(`catalog: stored models do not form a catalog: ${built.errors.join("; ")}`);
  return { catalog: built.catalog, meta };
}

export async function upsertModelRow(
  db: Database,
  row: {
    name: string;
    definition: Record<string, unknown>;
    revision: number;
    fallbacks: string[];
    updatedAt: Date;
    updatedBy: string;
  },
  audit: AuditEntry,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(models)
      .values(row)
      .onConflictDoUpdate({
        target: models.name,
        set: {
          definition: row.definition,
          revision: row.revision,
          fallbacks: row.fallbacks,
          updatedAt: row.updatedAt,
          updatedBy: row.updatedBy,
        },
      });
    await tx.insert(auditLog).values({ ...audit, at: row.updatedAt });
  });
}

/** Deletes the model and takes its name out of every other model's fallbacks, in one transaction. */
export async function deleteModelRow(
  db: Database,
  name: string,
  fallbackUpdates: ReadonlyMap<string, string[]>,
  audit: AuditEntry,
  at: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(models).where(eq(models.name, name));
    for (const [other, fallbacks] of fallbackUpdates) {
      await tx
        .update(models)
        .set({ fallbacks, updatedAt: at, updatedBy: audit.actor })
        .where(eq(models.name, other));
    }
    await tx.insert(auditLog).values({ ...audit, at });
  });
}

/** One change to a model's row, written with its audit row in one transaction. */
async function updateModelRow(
  db: Database,
  name: string,
  change:
    | { fallbacks: string[] }
    | { externalKeySealed: string | null }
    | { definition: Record<string, unknown> },
  audit: AuditEntry,
  at: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(models)
      .set({ ...change, updatedAt: at, updatedBy: audit.actor })
      .where(eq(models.name, name));
    await tx.insert(auditLog).values({ ...audit, at });
  });
}

export async function updateFallbacksRow(
  db: Database,
  name: string,
  fallbacks: string[],
  audit: AuditEntry,
  at: Date,
): Promise<void> {
  await updateModelRow(db, name, { fallbacks }, audit, at);
}

/** Stores (or clears, with null) a model's sealed provider key, with its audit row. */
export async function updateExternalKeyRow(
  db: Database,
  name: string,
  sealed: string | null,
  audit: AuditEntry,
  at: Date,
): Promise<void> {
  await updateModelRow(db, name, { externalKeySealed: sealed }, audit, at);
}

/** Rewrites the definition (its owner) without touching the revision, with its audit row. */
export async function updateOwnerRow(
  db: Database,
  name: string,
  definition: Record<string, unknown>,
  audit: AuditEntry,
  at: Date,
): Promise<void> {
  await updateModelRow(db, name, { definition }, audit, at);
}

/** Key-order-independent JSON, so two definitions that say the same thing compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, child]) => child !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
