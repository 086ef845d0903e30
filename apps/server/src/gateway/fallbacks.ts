// Fallbacks: when a model cannot take a request now (no room to place it, no ready replica, every
// breaker open), the request goes to the first of its fallbacks that can and that the key may use.
import { modelAllowed } from "@llmgw/domain";
import type { FleetView } from "../fleet/fleet-view";
import type { EndpointPool } from "./endpoints";

export function servingModel(
  catalog: Pick<FleetView["catalog"], "current" | "meta">,
  pool: EndpointPool,
  allowed: readonly string[],
  model: string,
  nowMs: number,
): string {
  if (pool.hasAvailable(model, nowMs)) return model;
  const fallbacks = catalog.meta(model)?.fallbacks ?? [];
  const usable = fallbacks.find(
    (name) =>
      modelAllowed(allowed, name) && catalog.current().get(name) && pool.hasAvailable(name, nowMs),
  );
  return usable ?? model;
}

/** The body with its model replaced, for a request sent to a fallback. */
export function withModel(raw: Buffer, model: string): Buffer {
  const body = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
  return Buffer.from(JSON.stringify({ ...body, model }));
}
