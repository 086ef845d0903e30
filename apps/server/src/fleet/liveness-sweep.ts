// Periodically notices nodes that went quiet (logged once per transition) and writes each live
// node's last-seen time to the store at a slow pace, so a restart knows when a node was last heard.
import { nodeLiveness, type LivenessPolicy, type NodeLiveness } from "@llmgw/domain";
import type { FleetRegistry, LiveNode } from "./registry";

const PERSIST_EVERY_MS = 15_000;

export interface SweepDeps {
  registry: FleetRegistry;
  policy: LivenessPolicy;
  nowMs(): number;
  log(line: string): void;
  saveLastSeen(nodeId: string, at: Date): Promise<void>;
  /** A node went quiet or came back; `previous` is undefined the first time a node is seen. */
  onTransition?(live: LiveNode, state: NodeLiveness, previous: NodeLiveness | undefined): void;
}

export function startLivenessSweep(deps: SweepDeps): { stop(): void } {
  const lastState = new Map<string, NodeLiveness>();
  let lastPersistMs = 0;
  const tick = () => {
    const now = deps.nowMs();
    const persist = now - lastPersistMs >= PERSIST_EVERY_MS;
    if (persist) lastPersistMs = now;
    for (const live of deps.registry.all()) {
      const state = nodeLiveness(live, now, deps.policy);
      if (lastState.get(live.nodeId) !== state) {
        if (lastState.has(live.nodeId) || state === "unreachable")
          deps.log(`node ${live.register.nodeName} is ${state}`);
        deps.onTransition?.(live, state, lastState.get(live.nodeId));
        lastState.set(live.nodeId, state);
      }
      if (persist && live.isConnected)
        void deps.saveLastSeen(live.nodeId, new Date(live.lastSeenMs));
    }
  };
  const timer = setInterval(tick, Math.max(250, deps.policy.heartbeatIntervalMs / 2));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
