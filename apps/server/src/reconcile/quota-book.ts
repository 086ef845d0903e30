// Quotas and owner chains as planning reads them: the `quotas` table and each catalog model's
// owner resolved up the org → team → project tree. Both are read from the store into memory, so a
// pass never waits on it; they are read again on a timer (a quota or a tree changed by another
// control plane) and at once when a quota or an owner is changed here (`reload`).
import { quotas as quotasTable, type Database } from "@llmgw/db";
import {
  messageOf,
  type ModelDefinition,
  type OwnershipResolver,
  type ScopeQuota,
} from "@llmgw/domain";

/** `{team: "ml"}` → `team:ml`; undefined for a model without an owner. */
export function ownerOf(definition: ModelDefinition): string | undefined {
  const owner = definition.owner;
  if (!owner) return undefined;
  if (owner.project !== undefined) return `project:${owner.project}`;
  if (owner.team !== undefined) return `team:${owner.team}`;
  if (owner.org !== undefined) return `org:${owner.org}`;
  return undefined;
}

/** Every row of the `quotas` table, as planning reads it. */
export async function readQuotaRows(db: Database): Promise<ScopeQuota[]> {
  const rows = await db.select().from(quotasTable);
  return rows.map((row) => ({ scope: row.scope, guarantee: row.guarantee, limit: row.limit }));
}

export class QuotaBook {
  private quotaList: readonly ScopeQuota[] = [];
  private readonly chains = new Map<string, readonly string[]>();

  constructor(
    private readonly readQuotas: () => Promise<ScopeQuota[]>,
    private readonly ownership: OwnershipResolver,
    private readonly log: (line: string) => void,
  ) {}

  /** Every scope's quota, as last read. */
  quotas(): readonly ScopeQuota[] {
    return this.quotaList;
  }

  /** The owner chain of a model, top first; empty for a model without an owner. */
  chainOf(definition: ModelDefinition): readonly string[] {
    const owner = ownerOf(definition);
    if (owner === undefined) return [];
    // An owner not resolved yet (named a moment ago) stands alone until `resolve` has read it.
    return this.chains.get(owner) ?? [owner];
  }

  /** Resolves the owners of these models that were never resolved; cheap once all are known. */
  async resolve(models: readonly ModelDefinition[]): Promise<void> {
    const unknown = new Set<string>();
    for (const model of models) {
      const owner = ownerOf(model);
      if (owner !== undefined && !this.chains.has(owner)) unknown.add(owner);
    }
    await Promise.all([...unknown].map((owner) => this.resolveOne(owner)));
  }

  /** Reads every quota and every known owner's chain again. */
  async reload(models: readonly ModelDefinition[]): Promise<void> {
    this.quotaList = await this.readQuotas();
    const owners = new Set([...this.chains.keys()]);
    for (const model of models) {
      const owner = ownerOf(model);
      if (owner !== undefined) owners.add(owner);
    }
    await Promise.all([...owners].map((owner) => this.resolveOne(owner)));
  }

  private async resolveOne(owner: string): Promise<void> {
    try {
      this.chains.set(owner, await this.ownership.chain(owner));
    } catch (error) {
      // The last chain read (or the owner alone) stands until the store answers again.
      this.log(`quotas: resolving owner ${owner} failed: ${messageOf(error)}`);
    }
  }
}
