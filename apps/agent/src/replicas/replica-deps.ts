// What a replica needs from the agent (its dependencies), the status frame it reports, and the
// small helpers around it, kept apart from the replica's life cycle in replica.ts.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { ReplicaPhase, type ReplicaStatusSchema } from "@llmgw/proto";
import type { ResolvedWeights, WeightCache } from "../cache/fetch";
import type { Logger } from "../log-ring";
import type { ProcessOps } from "./engine-process";
import type { HealthProbe } from "./health";
import type { EngineHost } from "./launch-plan";
import { hashKey } from "./state-file";

export type ReplicaStatusInit = MessageInitShape<typeof ReplicaStatusSchema>;

export const DEFAULT_START_TIMEOUT_MS = 10 * 60_000;

/** What the supervisor sees of a replica when told it changed. */
interface ReplicaView {
  readonly id: string;
  status(): ReplicaStatusInit;
}

export interface ReplicaDeps {
  dataDir: string;
  node: EngineHost;
  /** Host the control plane reaches engines at. */
  advertiseHost: string;
  /** The environment engines inherit (the agent's, minus its own secrets). */
  baseEnv: Readonly<Record<string, string>>;
  processes: ProcessOps;
  probeHealth: HealthProbe;
  weights: WeightCache;
  logger: Logger;
  nowMs: () => number;
  sleep: (ms: number) => Promise<void>;
  healthPollMs: number;
  stopGraceMs: number;
  takenPorts: () => ReadonlySet<number>;
  /** Called on every phase change and on throttled fetch progress. */
  onChange: (replica: ReplicaView) => void;
  /** Called when the set of running engine processes changes, to persist it. */
  onProcessChange: () => void;
}

export function isTerminal(phase: ReplicaPhase): boolean {
  return phase === ReplicaPhase.FAILED || phase === ReplicaPhase.STOPPED;
}

/** A replica id as a directory name: nothing that could climb out of the replicas directory. */
export function safeDirName(id: string): string {
  // The hash keeps two ids that differ only in replaced characters apart.
  return `r-${id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64)}-${hashKey(id).slice(0, 8)}`;
}

export function standInWeights(source: string): ResolvedWeights {
  return {
    modelPath: source,
    cacheName: undefined,
    note: "weights not fetched: the simulator stands in for the engine",
  };
}
