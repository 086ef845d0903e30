// What each scope of the ownership tree holds against its quota. A replica holds every card of
// every shard, each counted under the class of that card on its node, and its profile's cores and
// memory on each of its nodes; it counts for its model's owner and every scope above the owner.
// One walk over the replicas per call: planning and the Quotas page both read it every pass.
import type { ModelProfile } from "../catalog/model-definition";
import type { PlacementNode } from "../placement/types";
import type { DesiredModel, ReconcileNode, ReplicaPhaseName } from "../reconcile/types";
import type { QuotaAmounts, QuotaResource, ScopeQuota, ScopeUsage, ScopeUsageLine } from "./types";

/** The resources something holds or asks for; cards per class. */
export interface HeldAmounts {
  gpus: Map<string, number>;
  cores: number;
  memoryGb: number;
}

/** The part of a replica accounting reads; a replica spanning nodes lists every shard. */
export interface QuotaReplica {
  id: string;
  model: string;
  profile: string;
  nodeId: string;
  gpuIndexes: readonly number[];
  phase: ReplicaPhaseName;
  /** Every shard of a replica spanning nodes, as observed replicas carry them; absent: one node. */
  shards?: readonly { nodeId: string; gpuIndexes: readonly number[] }[];
}

/** The same fields as the planner's input, so a pass and the Quotas page count alike. */
export interface QuotaUsageInput {
  quotas: readonly ScopeQuota[];
  models: readonly DesiredModel[];
  replicas: readonly QuotaReplica[];
  nodes: readonly ReconcileNode[];
}

const emptyHeld = (): HeldAmounts => ({ gpus: new Map(), cores: 0, memoryGb: 0 });

/**
 * Stopped replicas hold nothing, and failed ones are being given up in the same pass that sees
 * them: counting them would refuse their own replacement at a limit for one pass.
 */
export const holdsQuota = (phase: ReplicaPhaseName): boolean =>
  phase !== "stopped" && phase !== "failed";

/**
 * A card's class on its node; the profile's named class when the node no longer reports it. The
 * first card with that index, as find would give, by a loop that allocates no closure.
 */
export function cardClass(
  node: PlacementNode | undefined,
  index: number,
  profile?: ModelProfile,
): string {
  if (node) for (const card of node.cards) if (card.index === index) return card.gpuClass;
  return typeof profile?.gpu === "string" ? profile.gpu : "unknown";
}

export function replicaHeld(
  replica: QuotaReplica,
  profile: ModelProfile | undefined,
  nodesById: ReadonlyMap<string, ReconcileNode>,
): HeldAmounts {
  const held = emptyHeld();
  addReplicaTo([held], replica, profile, nodesById, 1);
  return held;
}

/**
 * Adds (sign 1) or takes away (sign -1) what a replica holds to each of `into` directly, with no
 * amounts of its own in between: a pass at fleet scale does this for every replica.
 */
export function addReplicaTo(
  into: readonly HeldAmounts[],
  replica: QuotaReplica,
  profile: ModelProfile | undefined,
  nodesById: ReadonlyMap<string, ReconcileNode>,
  sign: 1 | -1,
): void {
  const shards =
    replica.shards && replica.shards.length > 0
      ? replica.shards
      : [{ nodeId: replica.nodeId, gpuIndexes: replica.gpuIndexes }];
  for (const shard of shards) {
    const node = nodesById.get(shard.nodeId)?.node;
    for (const index of shard.gpuIndexes) {
      const gpuClass = cardClass(node, index, profile);
      for (const held of into) held.gpus.set(gpuClass, (held.gpus.get(gpuClass) ?? 0) + sign);
    }
  }
  const cores = (profile?.cpu_cores ?? 0) * shards.length * sign;
  const memoryGb = (profile?.memory_gb ?? 0) * shards.length * sign;
  for (const held of into) {
    held.cores += cores;
    held.memoryGb += memoryGb;
  }
}

/** What one scope holds, made on first use. */
export function heldOfScope(heldByScope: Map<string, HeldAmounts>, scope: string): HeldAmounts {
  let held = heldByScope.get(scope);
  if (!held) heldByScope.set(scope, (held = emptyHeld()));
  return held;
}

/** The holdings of every scope of a chain, made on first use. */
export function chainHeld(
  heldByScope: Map<string, HeldAmounts>,
  chain: readonly string[],
): HeldAmounts[] {
  return chain.map((scope) => heldOfScope(heldByScope, scope));
}

/**
 * The nodes by id, by a loop and `set`: the Map constructor's iterator path over pairs cost
 * several times more at fleet scale. The planner builds it once a pass and shares it.
 */
export function nodesByIdOf(nodes: readonly ReconcileNode[]): Map<string, ReconcileNode> {
  const byId = new Map<string, ReconcileNode>();
  for (const entry of nodes) byId.set(entry.node.id, entry);
  return byId;
}

/**
 * What every scope holds: its own models' replicas and those of the scopes beneath it. Replicas
 * in `leaving` (stopped by the pass that asks) are left out.
 */
export function heldByScope(
  input: Omit<QuotaUsageInput, "quotas">,
  leaving: ReadonlySet<string> = new Set(),
  nodesById: ReadonlyMap<string, ReconcileNode> = nodesByIdOf(input.nodes),
): Map<string, HeldAmounts> {
  const byName = new Map(input.models.map((model) => [model.definition.name, model]));
  const held = new Map<string, HeldAmounts>();
  // Models are few and replicas many: each model's scopes are looked up once.
  const scopesOf = new Map<string, HeldAmounts[]>();
  for (const replica of input.replicas) {
    if (!holdsQuota(replica.phase) || leaving.has(replica.id)) continue;
    const model = byName.get(replica.model);
    const chain = model?.ownerChain;
    if (!model || !chain || chain.length === 0) continue;
    let into = scopesOf.get(replica.model);
    if (!into) scopesOf.set(replica.model, (into = chainHeld(held, chain)));
    const profile = model.definition.profiles.find((p) => p.name === replica.profile);
    addReplicaTo(into, replica, profile, nodesById, 1);
  }
  return held;
}

/** An amount of one resource line; undefined when the amounts do not name it. */
export function amountOf(amounts: QuotaAmounts, resource: QuotaResource): number | undefined {
  if (resource === "cores") return amounts.cores;
  if (resource === "memory") return amounts.memoryGb;
  return amounts.gpus[resource.slice("gpus:".length)];
}

export function heldOf(held: HeldAmounts, resource: QuotaResource): number {
  if (resource === "cores") return held.cores;
  if (resource === "memory") return held.memoryGb;
  return held.gpus.get(resource.slice("gpus:".length)) ?? 0;
}

function resourcesNamed(amounts: QuotaAmounts | null, into: Set<QuotaResource>): void {
  if (!amounts) return;
  for (const gpuClass of Object.keys(amounts.gpus)) into.add(`gpus:${gpuClass}`);
  if (amounts.cores !== undefined) into.add("cores");
  if (amounts.memoryGb !== undefined) into.add("memory");
}

/** Cards by class first (sorted), then cores, then memory: the order every surface shows. */
function resourceOrder(a: QuotaResource, b: QuotaResource): number {
  const rank = (r: QuotaResource) => (r === "cores" ? 1 : r === "memory" ? 2 : 0);
  return rank(a) - rank(b) || a.localeCompare(b, "en");
}

function usageOf(scope: string, quota: ScopeQuota | undefined, held: HeldAmounts): ScopeUsage {
  const resources = new Set<QuotaResource>();
  resourcesNamed(quota?.guarantee ?? null, resources);
  resourcesNamed(quota?.limit ?? null, resources);
  for (const [gpuClass, cards] of held.gpus) if (cards > 0) resources.add(`gpus:${gpuClass}`);
  if (held.cores > 0) resources.add("cores");
  if (held.memoryGb > 0) resources.add("memory");
  const lines = [...resources].sort(resourceOrder).map((resource): ScopeUsageLine => {
    const amount = heldOf(held, resource);
    const guaranteed = quota ? (amountOf(quota.guarantee, resource) ?? 0) : 0;
    const limit = quota?.limit ? (amountOf(quota.limit, resource) ?? null) : null;
    return {
      resource,
      held: amount,
      guaranteed,
      limit,
      borrowed: Math.max(0, amount - guaranteed),
    };
  });
  // A limit of 0 on something the scope holds none of is a rule, not a scope at its limit.
  const atLimit = lines.some((l) => l.limit !== null && l.held > 0 && l.held >= l.limit);
  return { scope, lines, atLimit };
}

/**
 * Usage of every scope that has a quota or holds something, sorted by scope. A scope without a
 * quota is guaranteed nothing, so all it holds is borrowed.
 */
export function quotaUsage(input: QuotaUsageInput): ScopeUsage[] {
  const held = heldByScope(input);
  const quotaByScope = new Map(input.quotas.map((quota) => [quota.scope, quota]));
  const scopes = new Set([...quotaByScope.keys(), ...held.keys()]);
  return [...scopes]
    .sort((a, b) => a.localeCompare(b, "en"))
    .map((scope) => usageOf(scope, quotaByScope.get(scope), held.get(scope) ?? emptyHeld()));
}
