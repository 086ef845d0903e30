// Quotas per scope of the ownership tree, behind `quotas.list/set/remove`. A change is checked
// (scope in the tree, amounts that parse, guarantee within its own and its parents' limits),
// stored, audited, and then the fleet is planned again so a new limit or guarantee acts at once.
import { ServiceError, type Actor, type QuotasService, type ScopeQuotaView } from "@llmgw/api";
import type { Database, QuotaRow } from "@llmgw/db";
import { formatQuotaAmounts, type OwnershipResolver, type ScopeQuota } from "@llmgw/domain";
import type { FleetView } from "../fleet/fleet-view";
import { recordAudit } from "../identity/audit";
import { requireUnit } from "../identity/org-tree";
import { deleteQuotaRow, readQuotaRows, scopeQuotaOf, writeQuotaRow } from "./quota-store";
import { scopeUsages } from "./quota-usage";
import {
  checkAgainstParents,
  checkedAmounts,
  checkedScope,
  checkGuaranteeWithinLimit,
} from "./quota-rules";

export interface QuotasServiceDeps {
  db: Database;
  fleet: FleetView;
  ownership: OwnershipResolver;
  /** Called after every change: the reconciler reads the quotas again and plans every model. */
  quotasChanged(): void;
  nowMs(): number;
  log(line: string): void;
}

function quotaView(row: QuotaRow | undefined): ScopeQuotaView["quota"] {
  if (!row) return null;
  return {
    guarantee: row.guarantee,
    limit: row.limit,
    guaranteeText: formatQuotaAmounts(row.guarantee),
    limitText: row.limit ? formatQuotaAmounts(row.limit) : null,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

async function listQuotas(deps: QuotasServiceDeps): Promise<ScopeQuotaView[]> {
  const rows = await readQuotaRows(deps.db);
  const byScope = new Map(rows.map((row) => [row.scope, row]));
  const usages = await scopeUsages(deps.fleet, deps.ownership, rows);
  return usages.map((usage) => ({ ...usage, quota: quotaView(byScope.get(usage.scope)) }));
}

async function chainsOf(
  ownership: OwnershipResolver,
  scopes: readonly string[],
): Promise<Map<string, string[]>> {
  const entries = await Promise.all(
    scopes.map(async (scope) => [scope, await ownership.chain(scope)] as const),
  );
  return new Map(entries);
}

async function setQuota(
  deps: QuotasServiceDeps,
  input: { scope: string; guarantee: string; limit?: string | null },
  actor: Actor,
): Promise<ScopeQuotaView> {
  const scope = checkedScope(input.scope);
  await requireUnit(deps.db, scope);
  const quota: ScopeQuota = {
    scope,
    guarantee: checkedAmounts("guarantee", input.guarantee),
    limit: input.limit == null ? null : checkedAmounts("limit", input.limit),
  };
  checkGuaranteeWithinLimit(quota);
  const rows = await readQuotaRows(deps.db);
  const stored = rows.map(scopeQuotaOf);
  const chains = await chainsOf(deps.ownership, [
    ...new Set([scope, ...stored.map((q) => q.scope)]),
  ]);
  checkAgainstParents(quota, stored, chains);

  const previous = stored.find((q) => q.scope === scope) ?? null;
  await writeQuotaRow(deps.db, quota, actor.username, new Date(deps.nowMs()));
  await recordAudit(deps.db, {
    actor: actor.username,
    action: "quota.set",
    target: scope,
    details: { guarantee: quota.guarantee, limit: quota.limit, previous },
  });
  deps.log(`quota of ${scope} set by ${actor.username}: ${formatQuotaAmounts(quota.guarantee)}`);
  deps.quotasChanged();
  const views = await listQuotas(deps);
  const view = views.find((entry) => entry.scope === scope);
  return view ?? { scope, quota: null, lines: [], atLimit: false };
}

async function removeQuota(
  deps: QuotasServiceDeps,
  requested: string,
  actor: Actor,
): Promise<{ scope: string }> {
  const scope = checkedScope(requested);
  const removed = await deleteQuotaRow(deps.db, scope);
  if (!removed)
    throw new ServiceError("not_found", `${scope} has no quota; see \`llmgw ctl quota\``, {
      code: "quota.not_found",
      params: { scope },
    });
  await recordAudit(deps.db, {
    actor: actor.username,
    action: "quota.remove",
    target: scope,
    details: { previous: scopeQuotaOf(removed) },
  });
  deps.log(`quota of ${scope} removed by ${actor.username}`);
  deps.quotasChanged();
  return { scope };
}

export function createQuotasService(deps: QuotasServiceDeps): QuotasService {
  // One change at a time: two sets in flight must not both pass the parent check against a
  // tree that neither of them has written yet.
  let queue: Promise<unknown> = Promise.resolve();
  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    list: () => listQuotas(deps),
    set: (input, actor) => serialised(() => setQuota(deps, input, actor)),
    remove: (scope, actor) => serialised(() => removeQuota(deps, scope, actor)),
  };
}
