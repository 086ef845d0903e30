// Periodically notices nodes that went quiet (logged once per transition) and writes the live
// nodes' last-seen times to the store at a slow pace, so a restart knows when a node was last
// heard. The times go out as one batch per round, not a statement per node: at 2,000 nodes a
// statement each was a burst of 2,000 UPDATEs every 15 s.
import { nodeLiveness, type LivenessPolicy, type NodeLiveness } from "@llmgw/domain";
import type { FleetRegistry, LiveNode } from "./registry";

const PERSIST_EVERY_MS = 15_000;

export interface SweepDeps {
  registry: FleetRegistry;
  policy: LivenessPolicy;
  nowMs(): number;
  log(line: string): void;
  saveLastSeen(seen: ReadonlyArray<{ nodeId: string; at: Date }>): Promise<void>;
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
    const seen: Array<{ nodeId: string; at: Date }> = [];
    for (const live of deps.registry.all()) {
      const state = nodeLiveness(live, now, deps.policy);
      if (lastState.get(live.nodeId) !== state) {
        if (lastState.has(live.nodeId) || state === "unreachable")
          deps.log(`node ${live.register.nodeName} is ${state}`);
        deps.onTransition?.(live, state, lastState.get(live.nodeId));
        lastState.set(live.nodeId, state);
      }
      if (persist && live.isConnected)
        seen.push({ nodeId: live.nodeId, at: new Date(live.lastSeenMs) });
    }
    if (seen.length > 0) void deps.saveLastSeen(seen);
  };
  const timer = setInterval(tick, Math.max(250, deps.policy.heartbeatIntervalMs / 2));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
