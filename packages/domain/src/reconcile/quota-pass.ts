// Quotas inside one planning pass: what every scope holds, kept current as the pass stops and
// places, so a model planned later sees what earlier ones took. Worked out once per pass from the
// replicas (never per model), and only when the pass first asks: a settled fleet that places
// nothing never pays for it, and with no quota at all there is no pass state.
import type { ModelDefinition, ModelProfile } from "../catalog/model-definition";
import type { PlacementNode, ReplicaShard } from "../placement/types";
import {
  addReplicaTo,
  cardClass,
  chainHeld,
  heldOfScope,
  heldByScope,
  holdsQuota,
  nodesByIdOf,
  replicaHeld,
  type HeldAmounts,
} from "../quota/accounting";
import type { QuotaAmounts, QuotaResource, ScopeQuota } from "../quota/types";
import type {
  DesiredModel,
  ObservedReplica,
  ReconcileAction,
  ReconcileInput,
  ReconcileNode,
} from "./types";

export interface QuotaPass {
  input: ReconcileInput;
  quotaByScope: Map<string, ScopeQuota>;
  /** What each scope holds; read it with heldMap, which works it out on first use. */
  heldCache?: Map<string, HeldAmounts>;
  /** The nodes by id; read it with nodesOf. */
  nodesCache?: ReadonlyMap<string, ReconcileNode>;
  byName: Map<string, DesiredModel>;
  /** Replicas whose stop was already given back, so noting a stop twice counts it once. */
  released: Set<string>;
  /** Replicas within a guarantee of their owner chain; worked out when a pass first asks. */
  guaranteed?: Set<string>;
  /** What the placement being admitted asks; refilled for each (see countAsk). */
  ask?: PlacementAsk;
}

/**
 * What a placement asks of its owner chain: cards per class (classes in the order its cards name
 * them), cores and memory. Counted into arrays the pass keeps and refills, because every placement
 * of a pass is checked against its limits and counted: a replica record and a map of amounts per
 * check were the largest share of what a pass at fleet scale allocated.
 */
interface PlacementAsk {
  /** How many classes the ask names: the arrays are only ever written over, never cut. */
  size: number;
  classes: string[];
  cards: number[];
  cores: number;
  memoryGb: number;
}

export function createQuotaPass(
  input: ReconcileInput,
  byName: Map<string, DesiredModel>,
  nodesById?: ReadonlyMap<string, ReconcileNode>,
): QuotaPass | undefined {
  const quotas = input.quotas ?? [];
  if (quotas.length === 0) return undefined;
  const pass: QuotaPass = {
    input,
    quotaByScope: new Map(quotas.map((quota) => [quota.scope, quota])),
    byName,
    released: new Set(),
  };
  if (nodesById) pass.nodesCache = nodesById;
  return pass;
}

/** What each scope holds now: the pass's replicas less those it stopped, plus what it placed. */
export function heldMap(pass: QuotaPass): Map<string, HeldAmounts> {
  pass.heldCache ??= heldByScope(pass.input, pass.released, nodesOf(pass));
  return pass.heldCache;
}

export function nodesOf(pass: QuotaPass): ReadonlyMap<string, ReconcileNode> {
  pass.nodesCache ??= nodesByIdOf(pass.input.nodes);
  return pass.nodesCache;
}

const chainOf = (pass: QuotaPass, model: string): readonly string[] =>
  pass.byName.get(model)?.ownerChain ?? [];

function profileOf(pass: QuotaPass, replica: ObservedReplica): ModelProfile | undefined {
  return pass.byName
    .get(replica.model)
    ?.definition.profiles.find((profile) => profile.name === replica.profile);
}

/** What a replica about to be placed on these shards would hold. */
export function askOf(pass: QuotaPass, profile: ModelProfile, shards: readonly ReplicaShard[]) {
  const first = shards[0];
  const replica = {
    id: "",
    model: "",
    profile: profile.name,
    nodeId: first?.nodeId ?? "",
    gpuIndexes: first?.cardIndexes ?? [],
    phase: "placing" as const,
    shards: shards.map((shard) => ({ nodeId: shard.nodeId, gpuIndexes: shard.cardIndexes })),
  };
  return replicaHeld(replica, profile, nodesOf(pass));
}

function describeAmount(resource: QuotaResource, held: number, limit: number): string {
  if (resource === "cores") return `${held} of its limit of ${limit} cores`;
  if (resource === "memory") return `${held} GiB of its limit of ${limit} GiB of memory`;
  return `${held} of its limit of ${limit} ${resource.slice("gpus:".length)} cards`;
}

/**
 * Counts what a replica of `profile` on these shards would hold, as askOf does, into `pass.ask`.
 * `known` holds the shards' nodes where the caller has them (placement does), so each is not
 * looked up among every node by id.
 */
function countAsk(
  pass: QuotaPass,
  profile: ModelProfile,
  shards: readonly ReplicaShard[],
  known?: readonly (PlacementNode | undefined)[],
  cardClasses?: readonly (string | undefined)[],
): PlacementAsk {
  // Not emptied by setting the lengths to 0: V8 drops an emptied array's storage, and the next
  // push allocates it again.
  const ask = (pass.ask ??= { size: 0, classes: [], cards: [], cores: 0, memoryGb: 0 });
  ask.size = 0;
  for (let at = 0; at < shards.length; at += 1) {
    const shard = shards[at] as ReplicaShard;
    const given = known?.[at];
    const isGiven = given?.id === shard.nodeId;
    // The class placement took the cards of, when it is each card's own: their records unread.
    const taken = isGiven ? cardClasses?.[at] : undefined;
    const node = isGiven ? given : nodesOf(pass).get(shard.nodeId)?.node;
    for (const index of shard.cardIndexes) {
      const gpuClass = taken ?? cardClass(node, index, profile);
      let at = 0;
      while (at < ask.size && ask.classes[at] !== gpuClass) at += 1;
      if (at < ask.size) ask.cards[at] = (ask.cards[at] as number) + 1;
      else {
        ask.classes[at] = gpuClass;
        ask.cards[at] = 1;
        ask.size += 1;
      }
    }
  }
  // A replica with no shard at all is counted as on one node, as accounting counts it.
  const nodeCount = Math.max(shards.length, 1);
  ask.cores = profile.cpu_cores * nodeCount;
  ask.memoryGb = profile.memory_gb * nodeCount;
  return ask;
}

/** The first resource the ask would take past `limit`, worded, or null; cards, cores, memory. */
function pastLimit(
  scope: string,
  limit: QuotaAmounts,
  held: HeldAmounts | undefined,
  ask: PlacementAsk,
): string | null {
  for (let at = 0; at < ask.size; at += 1) {
    const gpuClass = ask.classes[at] as string;
    const most = limit.gpus[gpuClass];
    if (most === undefined) continue;
    const after = (held?.gpus.get(gpuClass) ?? 0) + (ask.cards[at] as number);
    if (after > most)
      return `${scope} would hold ${describeAmount(`gpus:${gpuClass}`, after, most)}`;
  }
  if (ask.cores > 0 && limit.cores !== undefined) {
    const after = (held?.cores ?? 0) + ask.cores;
    if (after > limit.cores)
      return `${scope} would hold ${describeAmount("cores", after, limit.cores)}`;
  }
  if (ask.memoryGb > 0 && limit.memoryGb !== undefined) {
    const after = (held?.memoryGb ?? 0) + ask.memoryGb;
    if (after > limit.memoryGb)
      return `${scope} would hold ${describeAmount("memory", after, limit.memoryGb)}`;
  }
  return null;
}

/**
 * Why a new replica of `model` on these shards would take a scope of its owner chain past its
 * limit (`team:ml would hold 20 of its limit of 16 H100-80G cards`), or null when none.
 */
export function limitRefusal(
  pass: QuotaPass,
  model: ModelDefinition,
  profile: ModelProfile,
  shards: readonly ReplicaShard[],
): string | null {
  const chain = chainOf(pass, model.name);
  if (!chain.some((scope) => pass.quotaByScope.get(scope)?.limit)) return null;
  const ask = countAsk(pass, profile, shards);
  for (const scope of chain) {
    const limit = pass.quotaByScope.get(scope)?.limit;
    if (!limit) continue;
    const refusal = pastLimit(scope, limit, heldMap(pass).get(scope), ask);
    if (refusal !== null) return refusal;
  }
  return null;
}

/**
 * limitRefusal, and when it refuses nothing, counts the placement against its owner chain at once
 * for the next ask; the ask is counted once, as every placement of a pass is asked both.
 */
export function admitPlacement(
  pass: QuotaPass,
  model: ModelDefinition,
  profile: ModelProfile,
  shards: readonly ReplicaShard[],
  nodes?: readonly (PlacementNode | undefined)[],
  cardClasses?: readonly (string | undefined)[],
): string | null {
  const chain = chainOf(pass, model.name);
  if (chain.length === 0) return null;
  const ask = countAsk(pass, profile, shards, nodes, cardClasses);
  for (const scope of chain) {
    const limit = pass.quotaByScope.get(scope)?.limit;
    if (!limit) continue;
    const refusal = pastLimit(scope, limit, heldMap(pass).get(scope), ask);
    if (refusal !== null) return refusal;
  }
  countInto(pass, chain, ask);
  return null;
}

/** Adds an ask to what every scope of the chain holds. */
function countInto(pass: QuotaPass, chain: readonly string[], ask: PlacementAsk): void {
  const heldByScope = heldMap(pass);
  for (const scope of chain) {
    const held = heldOfScope(heldByScope, scope);
    for (let at = 0; at < ask.size; at += 1) {
      const gpuClass = ask.classes[at] as string;
      held.gpus.set(gpuClass, (held.gpus.get(gpuClass) ?? 0) + (ask.cards[at] as number));
    }
    held.cores += ask.cores;
    held.memoryGb += ask.memoryGb;
  }
}

/**
 * Gives back what the replicas stopped by `actions` (from `from` on) held: a stopped replica's
 * room is free for the rest of the pass as far as quotas go (its cards stay held for placement
 * until the node frees them), so a rebuild or a replacement at a limit is not refused by its
 * predecessor.
 */
export function noteStopped(
  pass: QuotaPass,
  replicas: readonly ObservedReplica[],
  actions: readonly ReconcileAction[],
  from = 0,
): void {
  // Most models stop nothing in a pass: they pay for no index of their replicas.
  let stops = false;
  for (let at = from; at < actions.length && !stops; at += 1)
    stops = (actions[at] as ReconcileAction).kind === "stop";
  if (!stops) return;
  const byId = new Map(replicas.map((replica) => [replica.id, replica]));
  for (let at = from; at < actions.length; at += 1) {
    const action = actions[at] as ReconcileAction;
    const replica = action.kind === "stop" ? byId.get(action.replicaId) : undefined;
    if (replica) releaseStopped(pass, replica);
  }
}

/** Gives back what one stopped replica held, once. */
export function releaseStopped(pass: QuotaPass, replica: ObservedReplica): void {
  if (!holdsQuota(replica.phase) || pass.released.has(replica.id)) return;
  pass.released.add(replica.id);
  const chain = chainOf(pass, replica.model);
  // Not worked out yet: the release is in `released`, which the working out leaves out.
  if (chain.length === 0 || !pass.heldCache) return;
  const into = chainHeld(pass.heldCache, chain);
  addReplicaTo(into, replica, profileOf(pass, replica), nodesOf(pass), -1);
}
