// The shape every engine adapter shares: what the agent needs to start, probe and scrape a replica,
// and what the server needs to validate a profile before anything is started.

export const ENGINE_NAMES = ["vllm", "llamacpp", "sglang", "trtllm", "sim", "comfyui"] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** Everything about one replica that decides its engine's command line and environment. */
export interface ReplicaLaunch {
  replicaId: string;
  /** A local path the agent fetched the weights to, or a hub id the engine loads itself. */
  model: string;
  /** The name clients use in `"model": …`; engines answer /v1/models with it. */
  servedModelName: string;
  host: string;
  port: number;
  /**
   * Cards the replica may use, as nvidia-smi indices or UUIDs; they become CUDA_VISIBLE_DEVICES.
   * An empty list means CPU only, and hides every card from the engine.
   */
  gpus: readonly string[];
  /** Defaults to 1. Must not exceed the number of cards. */
  tensorParallel?: number;
  contextTokensMax?: number;
  /** Serve /v1/embeddings instead of generation, where the engine needs to be told. */
  isEmbedding?: boolean;
  /** The profile's own arguments, appended last (the catalog has already refused dangerous ones). */
  extraArgs?: readonly string[];
  /** The profile's own environment; the adapter's variables (key, cards) win over it. */
  extraEnv?: Readonly<Record<string, string>>;
  /** The replica key (see deriveReplicaKey). Absent: the engine starts without one. */
  apiKey?: string;
  /** Absent for a replica on one node; set for each shard of a replica spanning nodes. */
  multiNode?: MultiNodeLaunch;
  /** LoRA adapters the agent fetched, each served as `servedModelName:name`. */
  adapters?: readonly LaunchAdapter[];
}

/** One LoRA adapter on the node's disk. */
export interface LaunchAdapter {
  name: string;
  /** A local file or directory the agent fetched the adapter to. */
  path: string;
  /** Absent or 0: unknown, the engine's default limit applies. */
  rank?: number;
}

/**
 * One shard of a replica spanning nodes: rank 0 (the leader) serves the API and listens for its
 * workers at leaderHost:leaderPort; every other rank joins it there and serves no API.
 */
export interface MultiNodeLaunch {
  nodeRank: number;
  nodeCount: number;
  leaderHost: string;
  leaderPort: number;
}

/** How an engine is told its API key. */
export type KeyDelivery =
  | { kind: "env"; variable: string }
  /** Only as a flag: visible to every user of the node in `ps`; logs must redact it. */
  | { kind: "argv"; flag: string }
  /** The engine cannot check a key at all. */
  | { kind: "none" };

/** Prometheus metric names for the three numbers routing and autoscaling read. */
export interface EngineMetricNames {
  /** Candidates in order; the first one present in a scrape wins (engines renamed some). */
  runningRequests: readonly string[];
  waitingRequests: readonly string[];
  /** A fraction 0..1 despite some names saying "perc". */
  kvCacheUsageRatio: readonly string[];
}

export interface EngineCommand {
  command: string;
  args: string[];
  /** Only the variables to set on top of the agent's own environment. */
  env: Record<string, string>;
  /** Flags in `args` whose values are secrets; pass to redactArgs before logging. */
  secretFlags: readonly string[];
  /** Variables in `env` whose values are secrets; pass to redactEnv before logging. */
  secretEnv: readonly string[];
  /** Things an operator should know about this replica (e.g. it cannot check a key). */
  warnings: string[];
}

export interface EngineAdapter {
  readonly name: EngineName;
  readonly displayName: string;
  readonly canServeOnCpu: boolean;
  readonly supportsTensorParallel: boolean;
  /** Whether one replica may span nodes (the engine's own multi-node flags). */
  readonly supportsMultiNode: boolean;
  readonly keyDelivery: KeyDelivery;
  /** Answers 200 once the engine can serve; the agent polls it with the key. */
  readonly healthPath: string;
  /**
   * What a worker shard (rank > 0) answers 200 on once it runs; undefined where the engine's
   * worker serves no HTTP at all, so the agent takes a worker still running after a poll as up.
   */
  readonly workerHealthPath: string | undefined;
  /** Prometheus text; absent where the engine publishes none we can read. */
  readonly metricsPath: string | undefined;
  readonly metricNames: EngineMetricNames | undefined;
  /** Throws EngineLaunchError when the launch cannot work on this engine. */
  buildCommand(launch: ReplicaLaunch): EngineCommand;
}

/** A launch this engine cannot run; the message names the replica, the engine and what to change. */
export class EngineLaunchError extends Error {
  override readonly name = "EngineLaunchError";
}
