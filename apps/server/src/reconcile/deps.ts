// What the reconciler and the agent reports share: the stores of desired and observed state, the
// live fleet, and the way to reach nodes. Nothing outside reconcile/ gets this bag: the gateway
// and the API services get the read-only `FleetView` and a `DemandSink`.
import type { LivenessPolicy, MirrorAddress, ReconcilePolicy } from "@llmgw/domain";
import type { NodeLinks } from "../agents/node-links";
import type { CatalogStore } from "../catalog/catalog-store";
import type { EventRecorder } from "../events/event-recorder";
import type { FleetRegistry } from "../fleet/registry";
import type { DemandBook } from "./demand";
import type { ModelHealthBook } from "./model-health";
import type { QuotaBook } from "./quota-book";
import type { ReplicaBook } from "./replica-book";
import type { ReplicaLoadBook } from "./replica-load";

export interface Unplaceable {
  summary: string;
  reasons: string[];
}

/** Whether this control plane leads: only the leader reconciles, places, evicts and parks. */
export interface Leadership {
  isLeader(): boolean;
  /** Asks the store again when the last word is stale (a frozen process); false: act on nothing. */
  confirm(): Promise<boolean>;
}

export interface ReconcileDeps {
  leadership: Leadership;
  catalog: CatalogStore;
  book: ReplicaBook;
  health: ModelHealthBook;
  registry: FleetRegistry;
  links: NodeLinks;
  /** The secret replica keys are derived from; never logged. */
  replicaSecret: Uint8Array;
  liveness: LivenessPolicy;
  policy: ReconcilePolicy;
  startTimeoutMs: number;
  /** When this process started leading (its start, or its latest takeover). */
  startedAtMs: number;
  /** After a start, how long unseen nodes have to reconnect before their replicas are rebuilt. */
  restartGraceMs: number;
  /** Models placement last refused, with why; cleared when a pass places them. */
  unplaceable: Map<string, Unplaceable>;
  /** Fleet events for the console and `ctl events`; recording never blocks or throws. */
  events: EventRecorder;
  /** When a request last asked for each model (the gateway records it; on-demand models use it). */
  demand: DemandBook;
  /** What each replica's engine last said about its queue (the gateway's scraper records it). */
  load: ReplicaLoadBook;
  /** Quotas per scope and the models' owner chains, read from the store. */
  quotas: QuotaBook;
  /** The models a guard policy names as its judge: their new replicas go to judge nodes first. */
  judgeModels?: JudgeModelNames;
  /** The mirrors in the order a node should try them; absent: none named in the settings. */
  mirrorOrder?: () => readonly MirrorAddress[];
  nowMs(): number;
  log(line: string): void;
}

/** Filled in once the guard exists: the control plane starts before it. */
export interface JudgeModelNames {
  current(): ReadonlySet<string>;
}
