// Requests for an on-demand model: each one is recorded as demand (the reconciler keeps one
// replica while demand is recent). With no replica to serve, the request asks for a placement
// pass at once and waits, bounded, for a ready replica. It then goes on to be served, or the
// gateway answers why not: unplaceable or parked (with the reasons), or the wait ran out.
import { setTimeout as sleep } from "node:timers/promises";
import type { FleetView } from "../fleet/fleet-view";
import type { DemandSink } from "../reconcile/demand";
import type { EndpointPool } from "./endpoints";
import { clientLeft, GatewayError } from "./errors";

const POLL_MS = 200;

export interface OnDemandDeps {
  fleet: Pick<FleetView, "catalog" | "health" | "book" | "unplaceable">;
  demand: DemandSink;
  pool: EndpointPool;
  /** Asks the reconciler to plan the model now. */
  reconcileNow(model: string): void;
  /** Resolves once the reconciler has no pass running or pending. */
  reconcileSettled(): Promise<void>;
  waitMs: number;
  nowMs(): number;
}

export async function awaitOnDemand(
  deps: OnDemandDeps,
  model: string,
  signal: AbortSignal,
): Promise<void> {
  const definition = deps.fleet.catalog.current().get(model);
  if (!definition?.on_demand) return;
  const startedMs = deps.nowMs();
  deps.demand.record(model, startedMs);
  if (deps.pool.endpointsOf(model).length > 0 || deps.fleet.health.get(model)?.isParked) return;
  deps.reconcileNow(model);
  await deps.reconcileSettled();
  for (;;) {
    // Served, parked or refused by placement: the caller serves or says why, at once.
    if (deps.pool.endpointsOf(model).length > 0) return;
    if (deps.fleet.health.get(model)?.isParked) return;
    const live = deps.fleet.book.ofModel(model).filter((r) => r.phase !== "stopped");
    if (deps.fleet.unplaceable.has(model) && live.length === 0) return;
    const waitedMs = deps.nowMs() - startedMs;
    if (waitedMs >= deps.waitMs) {
      const phases = live.map((r) => `${r.id} ${r.phase}${r.message ? ` (${r.message})` : ""}`);
      throw new GatewayError(
        503,
        `on-demand model "${model}" has no ready replica after ${Math.round(waitedMs / 1_000)} s of waiting${phases.length > 0 ? `: ${phases.join(", ")}` : ""}; retry later`,
        "service_unavailable",
        "model_start_timeout",
        { "retry-after": "10" },
      );
    }
    await sleep(Math.min(POLL_MS, deps.waitMs - waitedMs), undefined, { signal }).catch(() => {
      throw clientLeft();
    });
    // The request is still asking: keep the demand fresh while it waits.
    deps.demand.record(model, deps.nowMs());
  }
}
