// Assembles the /v1 gateway from the control plane's state; main.ts wires it to the HTTP port.
import type { ApiKeyRow, Database } from "@llmgw/db";
import { DEFAULT_BREAKER_POLICY } from "@llmgw/domain";
import type { Registry } from "prom-client";
import type { GatewayKeys } from "../keys/keys-service";
import type { ReconcileDeps } from "../reconcile/deps";
import { EndpointPool } from "./endpoints";
import { createGateway } from "./gateway";
import { registerGatewayMetrics } from "./gateway-metrics";
import { KeyLimits } from "./key-limits";
import { createUpstreamAgent } from "./upstream";
import { UsageRecorder } from "./usage-recorder";

export interface RunningGateway {
  handle: ReturnType<typeof createGateway>;
  stop(): Promise<void>;
}

/** Benchmarks only (LLMGW_GATEWAY_CHECKS=off): any bearer token opens every model, unlimited. */
const OPEN_KEY: ApiKeyRow = {
  ...{ id: "gateway-checks-off", prefix: "checks-off", keyHash: "", owner: "user:benchmark" },
  ...{ models: ["*"], requestsPerMinute: null, tokensPerMinute: null, concurrentMax: null },
  ...{ expiresAt: null, revokedAt: null, createdBy: "config", createdAt: new Date(0) },
  lastUsedAt: null,
};
class NoLimits extends KeyLimits {
  override admit(): void {}
  override release(): void {}
}
class NoUsage extends UsageRecorder {
  override record(): void {}
}

/** `checks: false` (P5 benchmark): no key check, no limits, no usage rows; routing is unchanged. */
export function startGateway(
  db: Database,
  plane: ReconcileDeps,
  keys: GatewayKeys,
  breakerOpenMs: number,
  registry: Registry,
  options: { checks: boolean } = { checks: true },
): RunningGateway {
  const agent = createUpstreamAgent();
  const usage = new (options.checks ? UsageRecorder : NoUsage)(db, plane.log);
  if (!options.checks)
    plane.log(
      "gateway: LLMGW_GATEWAY_CHECKS=off: /v1 checks no key, limits nothing, records no usage",
    );
  const pool = new EndpointPool(plane.book, {
    ...DEFAULT_BREAKER_POLICY,
    openForMs: breakerOpenMs,
  });
  const metrics = registerGatewayMetrics(registry, pool, plane.nowMs);
  const handle = createGateway({
    keys: options.checks
      ? keys
      : { ...keys, check: () => Promise.resolve({ ok: true, key: OPEN_KEY }) },
    limits: new (options.checks ? KeyLimits : NoLimits)(),
    usage,
    metrics,
    plane,
    pool,
    agent,
    replicaSecret: plane.replicaSecret,
    nowMs: plane.nowMs,
    log: plane.log,
  });
  return {
    handle,
    async stop() {
      await usage.stop();
      await agent.close();
    },
  };
}
