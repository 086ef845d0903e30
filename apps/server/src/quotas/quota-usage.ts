// What every scope holds against its quota now, from the live replica book and nodes: the same
// accounting (`quotaUsage`) the reconciler plans with, so the Quotas page, `ctl quota` and the
// metrics show the figures placement acts on.
import type { QuotaRow } from "@llmgw/db";
import {
  quotaUsage,
  type DesiredModel,
  type OwnershipResolver,
  type ScopeUsage,
} from "@llmgw/domain";
import { modelOwner } from "../catalog/model-views";
import type { FleetView } from "../fleet/fleet-view";
import { reconcileNodes } from "../fleet/placement-nodes";
import { scopeQuotaOf } from "./quota-store";

/** Each model with the chain of scopes its owner sits under (none for a model without owner). */
async function ownedModels(
  fleet: Pick<FleetView, "catalog">,
  ownership: OwnershipResolver,
): Promise<DesiredModel[]> {
  const catalog = fleet.catalog.current();
  const owners = [...new Set(catalog.models.flatMap((model) => modelOwner(model) ?? []))];
  const chains = new Map(
    await Promise.all(owners.map(async (owner) => [owner, await ownership.chain(owner)] as const)),
  );
  return catalog.models.map((definition) => {
    const owner = modelOwner(definition);
    return {
      definition,
      revision: fleet.catalog.meta(definition.name)?.revision ?? 1,
      ownerChain: owner ? (chains.get(owner) ?? [owner]) : [],
    };
  });
}

export async function scopeUsages(
  fleet: FleetView,
  ownership: OwnershipResolver,
  rows: readonly QuotaRow[],
): Promise<ScopeUsage[]> {
  const replicas = fleet.book.active();
  const nodes = reconcileNodes(
    fleet.registry,
    new Set(replicas.map((replica) => replica.nodeId)),
    fleet.nowMs(),
    fleet.liveness,
    fleet.startedAtMs,
  );
  return quotaUsage({
    quotas: rows.map(scopeQuotaOf),
    models: await ownedModels(fleet, ownership),
    replicas,
    nodes,
  });
}
