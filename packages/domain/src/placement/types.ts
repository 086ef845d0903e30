// The inputs and outputs of placement. They are plain values so the server can build them from
// live inventory, a test from a literal and a benchmark from a generator, and get the same answer.
import type { Engine } from "../catalog/engine-flags";
import type { GpuNeed } from "../catalog/model-definition";
import type { DrawSource } from "../facility/board-power";

export interface PlacementCard {
  /** The card's index on its node, as nvidia-smi numbers it. */
  index: number;
  gpuClass: string;
  memoryGb: number;
  computeCapability: number;
  /** An unhealthy card is neither used nor free: it is never chosen and never counted as room. */
  isHealthy: boolean;
  /**
   * What the card draws while serving, the highest of its declared (catalog or power limit),
   * derived and measured draw; absent: not counted against power budgets.
   */
  drawWatts?: number;
  /** Which of the card's figures gave drawWatts, for explain; absent: not said. */
  drawFrom?: DrawSource;
}

/** A power cap on a facility domain the node is in (`facility.budgets`). */
export interface PowerBudget {
  /** `rack=r12`. */
  domain: string;
  watts: number;
}

export interface PlacementNode {
  id: string;
  name: string;
  /** Unreachable nodes are never chosen, whatever they last reported. */
  isReachable: boolean;
  labels: Readonly<Record<string, string>>;
  cards: readonly PlacementCard[];
  memoryGbTotal: number;
  cpuCoresTotal: number;
  diskGbFree: number;
  /** Engines the node's agent offers; absent means any. */
  engines?: readonly Engine[];
  /** Model sources whose weights the node already holds, so it needs no disk for them. */
  cachedSources?: readonly string[];
  /** Why nothing new is placed here (a cordon, or a hold on its rack…); absent: it takes replicas. */
  hold?: string;
  /** The power caps of the domains the node is in; absent or empty: none. */
  powerBudgets?: readonly PowerBudget[];
  /** Why its replicas move elsewhere, each stopped once its replacement is ready; absent: none. */
  drain?: string;
}

/** The part of a replica on one node: a multi-node replica has one shard per node. */
export interface ReplicaShard {
  nodeId: string;
  cardIndexes: readonly number[];
}

export interface ExistingReplica {
  /** Shown in reasons as the holder of a card, e.g. "qwen-7b/r2". */
  id: string;
  model: string;
  shards: readonly ReplicaShard[];
  /** Host memory and cores held on each of its nodes. */
  memoryGb: number;
  cpuCores: number;
  /** The catalog's declared draw per card (profile `power_watts_per_card`); absent: none. */
  drawWattsPerCard?: number;
}

export interface PlacementRequest {
  replicaId: string;
  model: string;
  profile: string;
  source: string;
  engine: Engine;
  /** A class, a need standing for every class meeting it, or absent for a CPU replica. */
  gpu?: string | GpuNeed;
  /** Cards on each node. */
  gpus: number;
  nodes: number;
  memoryGb: number;
  cpuCores: number;
  /** Weights on disk; needed free on every node that does not hold them yet. */
  sizeGb: number;
  nodeSelector: Readonly<Record<string, string>>;
  /** Every shard in one domain of this kind (a profile's keep_within); absent: anywhere. */
  keepWithin?: "rack" | "row" | "room";
  /** The catalog's declared draw per card (profile `power_watts_per_card`); absent: none. */
  drawWattsPerCard?: number;
}

export interface PlacementPolicy {
  /** A node with this label takes only profiles whose selector asks for its value. */
  roleLabel: string;
}

export const DEFAULT_PLACEMENT_POLICY: PlacementPolicy = { roleLabel: "llmgw.role" };

export interface NodeRejection {
  nodeId: string;
  nodeName: string;
  /** Which checks failed, in the order they ran; stable names for grouping and metrics. */
  failed: string[];
  reasons: string[];
}

export type PlacementResult =
  | { ok: true; replicaId: string; shards: ReplicaShard[]; gpuClass?: string }
  | { ok: false; replicaId: string; summary: string; rejections: NodeRejection[] };

export interface PlacementInput {
  nodes: readonly PlacementNode[];
  replicas: readonly ExistingReplica[];
  policy?: PlacementPolicy;
}
