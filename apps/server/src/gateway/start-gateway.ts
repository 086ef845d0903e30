// Assembles the /v1 gateway from the control plane's state; main.ts wires it to the HTTP port.
import type { Database } from "@llmgw/db";
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

export function startGateway(
  db: Database,
  plane: ReconcileDeps,
  keys: GatewayKeys,
  breakerOpenMs: number,
  registry: Registry,
): RunningGateway {
  const agent = createUpstreamAgent();
  const usage = new UsageRecorder(db, plane.log);
  const pool = new EndpointPool(plane.book, {
    ...DEFAULT_BREAKER_POLICY,
    openForMs: breakerOpenMs,
  });
  const metrics = registerGatewayMetrics(registry, pool, plane.nowMs);
  const handle = createGateway({
    keys,
    limits: new KeyLimits(),
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
