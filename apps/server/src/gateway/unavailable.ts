// Why a model cannot be served right now, answered at once instead of "loading, retry".
import type { FleetView } from "../fleet/fleet-view";
import type { Endpoint } from "./endpoints";
import { GatewayError } from "./errors";

export function whyUnavailable(
  fleet: Pick<FleetView, "health" | "unplaceable" | "catalog">,
  model: string,
  endpoints: readonly Endpoint[],
  nowMs: number,
): GatewayError {
  const health = fleet.health.get(model);
  if (health?.isParked) {
    const last = health.lastError ? `: ${health.lastError}` : "";
    return unavailable(
      `model "${model}" is parked after ${health.consecutiveFailures} failed starts${last}; an operator must run \`llmgw ctl retry ${model}\``,
      "model_parked",
    );
  }
  const unplaceable = fleet.unplaceable.get(model);
  if (unplaceable && endpoints.length === 0) {
    const reasons = unplaceable.reasons.length > 0 ? ` (${unplaceable.reasons.join("; ")})` : "";
    return unavailable(
      `model "${model}" cannot be placed: ${unplaceable.summary}${reasons}`,
      "model_unplaceable",
    );
  }
  if (endpoints.length > 0 && endpoints.every((e) => e.external)) {
    const waitMs = Math.min(...endpoints.map((e) => e.breaker.msUntilProbe(nowMs)));
    const seconds = Math.max(1, Math.ceil(waitMs / 1_000));
    return unavailable(
      `every key of external model "${model}" (${endpoints.map((e) => e.id).join(", ")}) was refused or rate-limited by its provider; the next is tried again in ${seconds} s`,
      "external_keys_resting",
      seconds,
    );
  }
  if (endpoints.length > 0) {
    const waitMs = Math.min(...endpoints.map((e) => e.breaker.msUntilProbe(nowMs)));
    const seconds = Math.max(1, Math.ceil(waitMs / 1_000));
    return unavailable(
      `every replica of model "${model}" is failing; the next is tried again in ${seconds} s`,
      "no_healthy_replica",
      seconds,
    );
  }
  const definition = fleet.catalog.current().get(model);
  if (definition?.external)
    return unavailable(
      `external model "${model}" has no key to call its provider with`,
      "external_key_unreadable",
    );
  if (definition?.on_demand)
    return unavailable(
      `on-demand model "${model}" has no ready replica; its start was asked for, retry shortly`,
      "model_not_ready",
      5,
    );
  return unavailable(
    `model "${model}" has no ready replica yet; it is being started`,
    "model_not_ready",
    5,
  );
}

function unavailable(message: string, code: string, retryAfterSeconds?: number): GatewayError {
  const headers: Record<string, string> =
    retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) };
  return new GatewayError(503, message, "service_unavailable", code, headers);
}
