// Fallbacks: when a model cannot take a request now (no room to place it, no ready replica, every
// breaker open), the request goes to the first of its fallbacks that can and that the key may use.
// A fallback may be a peer cluster's model (`PEER/MODEL`): the overflow then goes to the peer,
// unless the key or the model must stay in this cluster (`peers` is null then).
import { modelAllowed } from "@llmgw/domain";
import type { FleetView } from "../fleet/fleet-view";
import type { EndpointPool } from "./endpoints";

export function servingModel(
  catalog: Pick<FleetView["catalog"], "current" | "meta">,
  pool: EndpointPool,
  allowed: readonly string[],
  model: string,
  nowMs: number,
  peers: { isAvailable(name: string): boolean } | null,
): string {
  if (pool.hasAvailable(model, nowMs)) return model;
  const fallbacks = catalog.meta(model)?.fallbacks ?? [];
  const usable = fallbacks.find(
    (name) =>
      modelAllowed(allowed, name) &&
      (catalog.current().get(name)
        ? pool.hasAvailable(name, nowMs)
        : (peers?.isAvailable(name) ?? false)),
  );
  return usable ?? model;
}

/** The body with its model replaced, for a request sent to a fallback. */
export function withModel(raw: Buffer, model: string): Buffer {
  const body = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
  return Buffer.from(JSON.stringify({ ...body, model }));
}
