// The rules a quota must keep before it is stored, as pure checks: amounts that parse, a guarantee
// no larger than the scope's own limit, and no larger than the limit of any scope above it (a
// parent cannot promise a child more than it may hold itself). Each refusal names what was wrong.
import { ServiceError } from "@llmgw/api";
import {
  parseOwner,
  parseQuotaAmounts,
  QUOTA_SPEC_EXAMPLE,
  type QuotaAmounts,
  type QuotaResource,
  type ScopeQuota,
} from "@llmgw/domain";

/** Refuses a scope that is not an org, team or project (a person has no quota). */
export function checkedScope(scope: string): string {
  const ref = parseOwner(scope);
  if (!ref || ref.kind === "user")
    throw new ServiceError(
      "invalid",
      `"${scope}" is not a scope a quota can have; give org:NAME, team:NAME or project:NAME`,
      { code: "quota.scope_refused", params: { scope } },
    );
  return `${ref.kind}:${ref.name}`;
}

/** The amounts of `--guarantee` or `--limit`, or a refusal naming the part that is wrong. */
export function checkedAmounts(field: "guarantee" | "limit", text: string): QuotaAmounts {
  const parsed = parseQuotaAmounts(text);
  if (parsed.ok) return parsed.amounts;
  throw new ServiceError(
    "invalid",
    `${field}: "${parsed.part}" was refused: ${parsed.why} (for example ${QUOTA_SPEC_EXAMPLE})`,
    { code: "quota.amounts_refused", params: { field, part: parsed.part, why: parsed.why } },
  );
}

/** Every resource the amounts name, with its amount. */
function namedAmounts(amounts: QuotaAmounts): Array<[QuotaResource, number]> {
  const named: Array<[QuotaResource, number]> = Object.entries(amounts.gpus).map(
    ([gpuClass, cards]) => [`gpus:${gpuClass}`, cards],
  );
  if (amounts.cores !== undefined) named.push(["cores", amounts.cores]);
  if (amounts.memoryGb !== undefined) named.push(["memory", amounts.memoryGb]);
  return named;
}

function limitOf(limit: QuotaAmounts | null, resource: QuotaResource): number | undefined {
  if (!limit) return undefined;
  return new Map(namedAmounts(limit)).get(resource);
}

/** A guarantee above the scope's own limit promises what the scope may never hold. */
export function checkGuaranteeWithinLimit(quota: ScopeQuota): void {
  for (const [resource, guaranteed] of namedAmounts(quota.guarantee)) {
    const limit = limitOf(quota.limit, resource);
    if (limit === undefined || guaranteed <= limit) continue;
    throw new ServiceError(
      "invalid",
      `${quota.scope}: the guarantee of ${guaranteed} ${resource} is above its limit of ${limit}; lower the guarantee or raise the limit`,
      {
        code: "quota.guarantee_above_limit",
        params: { scope: quota.scope, resource, guaranteed, limit },
      },
    );
  }
}

/**
 * A child's guarantee may not exceed the limit of any scope above it. `chains` gives each scope's
 * chain from the top of the tree down to itself; `quota` replaces the stored one of its scope.
 */
export function checkAgainstParents(
  quota: ScopeQuota,
  stored: readonly ScopeQuota[],
  chains: ReadonlyMap<string, readonly string[]>,
): void {
  const byScope = new Map(stored.map((q) => [q.scope, q]));
  byScope.set(quota.scope, quota);
  for (const child of byScope.values()) {
    const above = (chains.get(child.scope) ?? []).filter((scope) => scope !== child.scope);
    // Only pairs the new quota takes part in: the others were checked when they were stored.
    if (child.scope !== quota.scope && !above.includes(quota.scope)) continue;
    for (const parentScope of above) {
      const parent = byScope.get(parentScope);
      if (parent) checkChildWithin(child, parent);
    }
  }
}

function checkChildWithin(child: ScopeQuota, parent: ScopeQuota): void {
  for (const [resource, guaranteed] of namedAmounts(child.guarantee)) {
    const limit = limitOf(parent.limit, resource);
    if (limit === undefined || guaranteed <= limit) continue;
    throw new ServiceError(
      "invalid",
      `${child.scope}: the guarantee of ${guaranteed} ${resource} is above the limit of ${parent.scope} (${limit}); a scope cannot be promised more than the scope above it may hold`,
      {
        code: "quota.above_parent_limit",
        params: { scope: child.scope, resource, guaranteed, parent: parent.scope, limit },
      },
    );
  }
}
