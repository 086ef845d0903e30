// The inputs and actions of reconcile planning. Plain values, so the server builds them from its
// live fleet and store, and a simulation from a generator, and both get the same decisions.
import type { ModelDefinition } from "../catalog/model-definition";
import type { PlacementNode, PlacementPolicy, ReplicaShard } from "../placement/types";
import type { ScopeQuota } from "../quota/types";
import type { PlanCache } from "./plan-cache";

export const REPLICA_PHASE_NAMES = [
  "placing",
  "fetching",
  "starting",
  "ready",
  "failed",
  "draining",
  "stopped",
] as const;
export type ReplicaPhaseName = (typeof REPLICA_PHASE_NAMES)[number];

/** A catalog model with the revision of its definition (bumped on every change). */
export interface DesiredModel {
  definition: ModelDefinition;
  revision: number;
  /** When a request last asked for the model (the gateway tells); null or absent: not asked. */
  demandedAtMs?: number | null;
  /** Replicas autoscaling added above the base (the reconciler keeps it); absent: none. */
  autoscaleAdded?: number;
  /**
   * The scopes the model's owner sits under, top of the tree first and ending in the owner
   * (`["org:acme", "team:ml", "project:search"]`); absent or empty: the model has no owner and
   * counts against no quota.
   */
  ownerChain?: readonly string[];
  /**
   * A role (the value of the placement policy's role label, e.g. `judge`) whose nodes its new
   * replicas go to first when a profile names no role itself; where they have no room, the
   * profile is placed as it says. Absent: no preference.
   */
  preferredRole?: string;
}

/** What must survive a restart about a model's starts. */
export interface ModelHealth {
  name: string;
  consecutiveFailures: number;
  isParked: boolean;
  lastError: string | null;
  /** The definition revision the failures were counted against. */
  revision: number;
  /** When the last of those failures was counted; a replacement waits out the backoff from it. */
  lastFailureAtMs?: number | null;
}

/** One rank of a replica that spans nodes; rank 0 is the leader shard, which serves the API. */
export interface ObservedShard {
  rank: number;
  nodeId: string;
  gpuIndexes: readonly number[];
  phase: ReplicaPhaseName;
  message: string;
}

export interface ObservedReplica {
  id: string;
  model: string;
  profile: string;
  modelRevision: number;
  nodeId: string;
  gpuIndexes: readonly number[];
  phase: ReplicaPhaseName;
  message: string;
  createdAtMs: number;
  /** Requests the replica is serving now; null or absent: not known. */
  inFlight?: number | null;
  /**
   * When a request last reached the replica; null or absent: not known (a router that just
   * restarted knows nothing), which is never taken for idle.
   */
  lastUsedAtMs?: number | null;
  /**
   * Every shard, by rank, of a replica whose profile spans nodes (`nodes > 1`); `nodeId` and
   * `gpuIndexes` above are rank 0's. Absent or empty for a replica on one node.
   */
  shards?: readonly ObservedShard[];
}

export interface ReconcileNode {
  /** `node.isReachable` says whether it is reachable now. */
  node: PlacementNode;
  /** When it stopped answering; null while it answers. */
  unreachableSinceMs: number | null;
}

export interface FailureBackoffPolicy {
  /** The wait after the first failure; 0 turns the backoff off. */
  baseMs: number;
  capMs: number;
}

export interface ReconcilePolicy {
  /** How long a node may stay unreachable before its replicas are rebuilt elsewhere. */
  lostAfterMs: number;
  /** Failed starts in a row that park a model. */
  failuresToPark: number;
  placement?: PlacementPolicy;
  /** How long an on-demand model keeps its replica after the last request (default 10 min). */
  onDemandIdleMs?: number;
  /** The wait before replacing a failed replica (default 5 s doubling to 5 min). */
  failureBackoff?: FailureBackoffPolicy;
  /**
   * How long a replica must have served nothing before it may be evicted for a more important
   * model that cannot otherwise be placed (default 2 min).
   */
  evictAfterIdleMs?: number;
}

export const DEFAULT_RECONCILE_POLICY: ReconcilePolicy = { lostAfterMs: 10_000, failuresToPark: 5 };

export interface ReconcileInput {
  models: readonly DesiredModel[];
  health: readonly ModelHealth[];
  replicas: readonly ObservedReplica[];
  nodes: readonly ReconcileNode[];
  nowMs: number;
  policy: ReconcilePolicy;
  /** Quotas per scope; absent or empty: none, and planning skips quota accounting entirely. */
  quotas?: readonly ScopeQuota[];
  /** Plan only these models (a dirty set); every model in the catalog or holding replicas when absent. */
  only?: readonly string[];
  /**
   * What the caller keeps between passes (`createPlanCache`): the node map and placement index,
   * reused while the nodes are the same objects. Absent: every pass builds its own. The actions
   * are the same either way; a cache serves one caller's passes, one at a time.
   */
  cache?: PlanCache;
  /** Names a new replica; injected so planning stays a pure function. */
  newReplicaId(model: string): string;
}

export type ReconcileAction =
  | {
      kind: "place";
      model: string;
      replicaId: string;
      profile: string;
      revision: number;
      shards: ReplicaShard[];
      gpuClass?: string;
    }
  | { kind: "unplaceable"; model: string; summary: string; reasons: string[] }
  | { kind: "stop"; model: string; replicaId: string; nodeId: string; reason: string }
  | { kind: "node-lost"; nodeId: string; nodeName: string }
  | { kind: "count-failure"; model: string; replicaId: string; revision: number; error: string }
  | { kind: "park"; model: string; lastError: string }
  | { kind: "reset-failures"; model: string; revision: number; why: "new-revision" | "ready" };
