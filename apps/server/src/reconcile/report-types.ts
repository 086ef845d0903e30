// What agent reports decide and need, apart from reports.ts so the shard reports share them.
import type { ReconcileDeps } from "./deps";

/** A frame a report calls for; the reconcile loop sends it. */
export type ReportDecision =
  | { kind: "stop"; nodeId: string; replicaId: string; reason: string }
  /** Every shard that can start, or only the one on `nodeId` when given. */
  | { kind: "resend-start"; replicaId: string; nodeId?: string }
  | { kind: "send-desired"; nodeId: string };

export interface ReportSink {
  markDirty(model: string): void;
  /** Sends what the decision calls for, at once. */
  carryOut(decision: ReportDecision): void;
}

/** What reports read and write: the book (phases), and the registry and events to tell of them. */
export interface ReportDeps extends Pick<ReconcileDeps, "nowMs" | "log"> {
  book: Pick<ReconcileDeps["book"], "get" | "update" | "updateShard" | "onNode">;
  registry: Pick<ReconcileDeps["registry"], "get">;
  events: Pick<ReconcileDeps["events"], "record">;
}
