// Which replicas are within their owner's guarantee and which are borrowed.
//
// The rule: a guarantee covers the resources it names (a guarantee of 16 H100-80G cards covers a
// replica's cards of that class and says nothing of its cores). Every scope with a guarantee fills
// it with the replicas of its models and of the scopes beneath it, in order of priority class
// (critical first), then age (oldest first), then id; a replica fits when, for each resource the
// guarantee names and the replica holds, what was filled before it plus what it holds stays within
// the guarantee, and it holds at least one of them. A replica that does not fit is skipped and the
// next may still fit (a small one after a large one). A replica is within its owner's guarantee
// when any scope of its owner chain (the owner or one above it) covered it; otherwise it is
// borrowed. A replica of a model without an owner is neither: it is outside quotas altogether.
import { PRIORITY_CLASSES } from "../catalog/model-definition";
import { amountOf, heldOf, holdsQuota, replicaHeld, type HeldAmounts } from "../quota/accounting";
import type { QuotaAmounts, QuotaResource } from "../quota/types";
import { heldMap, nodesOf, type QuotaPass } from "./quota-pass";
import type { ObservedReplica } from "./types";

function namedResources(guarantee: QuotaAmounts): QuotaResource[] {
  const resources: QuotaResource[] = Object.keys(guarantee.gpus).map(
    (gpuClass): QuotaResource => `gpus:${gpuClass}`,
  );
  if (guarantee.cores !== undefined) resources.push("cores");
  if (guarantee.memoryGb !== undefined) resources.push("memory");
  return resources;
}

/** Whether `asked` on top of `filled` stays within the guarantee, for what it names and `asked` holds. */
function fitsGuarantee(
  guarantee: QuotaAmounts,
  filled: HeldAmounts | undefined,
  asked: HeldAmounts,
): boolean {
  let holdsNamed = false;
  for (const resource of namedResources(guarantee)) {
    const amount = heldOf(asked, resource);
    if (amount <= 0) continue;
    holdsNamed = true;
    const before = filled ? heldOf(filled, resource) : 0;
    if (before + amount > (amountOf(guarantee, resource) ?? 0)) return false;
  }
  return holdsNamed;
}

export const priorityRank = (pass: QuotaPass, model: string): number =>
  PRIORITY_CLASSES.indexOf(pass.byName.get(model)?.definition.priority_class ?? "normal");

function fillOrder(pass: QuotaPass) {
  return (a: ObservedReplica, b: ObservedReplica): number =>
    priorityRank(pass, a.model) - priorityRank(pass, b.model) ||
    a.createdAtMs - b.createdAtMs ||
    a.id.localeCompare(b.id, "en");
}

/** The replicas under each scope that has a guarantee, each with what it holds. */
function replicasUnderGuarantees(pass: QuotaPass, replicas: readonly ObservedReplica[]) {
  const under = new Map<string, ObservedReplica[]>();
  const held = new Map<string, HeldAmounts>();
  for (const replica of replicas) {
    if (!holdsQuota(replica.phase)) continue;
    const model = pass.byName.get(replica.model);
    for (const scope of model?.ownerChain ?? []) {
      if (!pass.quotaByScope.has(scope)) continue;
      let list = under.get(scope);
      if (!list) under.set(scope, (list = []));
      list.push(replica);
      if (held.has(replica.id)) continue;
      const profile = model?.definition.profiles.find((p) => p.name === replica.profile);
      held.set(replica.id, replicaHeld(replica, profile, nodesOf(pass)));
    }
  }
  return { under, held };
}

/** The ids of the replicas within a guarantee of their owner chain (see the rule above). */
export function guaranteedReplicas(
  pass: QuotaPass,
  replicas: readonly ObservedReplica[],
): Set<string> {
  const { under, held } = replicasUnderGuarantees(pass, replicas);
  const covered = new Set<string>();
  for (const [scope, list] of under) {
    const guarantee = pass.quotaByScope.get(scope)?.guarantee;
    if (!guarantee) continue;
    const filled: HeldAmounts = { gpus: new Map(), cores: 0, memoryGb: 0 };
    for (const replica of list.sort(fillOrder(pass))) {
      const amounts = held.get(replica.id);
      if (!amounts || !fitsGuarantee(guarantee, filled, amounts)) continue;
      for (const [gpuClass, cards] of amounts.gpus)
        filled.gpus.set(gpuClass, (filled.gpus.get(gpuClass) ?? 0) + cards);
      filled.cores += amounts.cores;
      filled.memoryGb += amounts.memoryGb;
      covered.add(replica.id);
    }
  }
  return covered;
}

/**
 * The scope of the chain whose guarantee a new replica holding `asked` would stay within, given
 * what each scope holds now; null when it would be borrowed everywhere.
 */
export function guaranteeScopeFor(
  pass: QuotaPass,
  chain: readonly string[],
  asked: HeldAmounts,
): string | null {
  for (const scope of [...chain].reverse()) {
    const guarantee = pass.quotaByScope.get(scope)?.guarantee;
    if (guarantee && fitsGuarantee(guarantee, heldMap(pass).get(scope), asked)) return scope;
  }
  return null;
}
