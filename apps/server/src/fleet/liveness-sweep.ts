// Periodically notices nodes that went quiet (logged once per transition) and writes the live
// nodes' last-seen times to the store at a slow pace, so a restart knows when a node was last
// heard. The times go out as one batch per round, not a statement per node: at 2,000 nodes a
// statement each was a burst of 2,000 UPDATEs every 15 s.
import { nodeLiveness, type LivenessPolicy, type NodeLiveness } from "@llmgw/domain";
import type { FleetRegistry, LiveNode } from "./registry";

const PERSIST_EVERY_MS = 15_000;
/**
 * Transition lines logged per round at most; the rest are counted by state in one line. A fleet
 * dropping or coming back at once was a line per node, written synchronously to stdout: in a
 * 500-agent reconnect storm 1.6 s of the server's CPU went to them, blocked on a busy reader.
 */
export const TRANSITION_LINES_MAX = 20;

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
    const lines = transitionLog(deps.log);
    for (const live of deps.registry.all()) {
      const state = nodeLiveness(deps.registry.heard(live), now, deps.policy);
      if (lastState.get(live.nodeId) !== state) {
        if (lastState.has(live.nodeId) || state === "unreachable")
          lines.add(live.register.nodeName, state);
        deps.onTransition?.(live, state, lastState.get(live.nodeId));
        lastState.set(live.nodeId, state);
      }
      if (persist && live.isConnected)
        seen.push({ nodeId: live.nodeId, at: new Date(live.lastSeenMs) });
    }
    lines.flush();
    if (seen.length > 0) void deps.saveLastSeen(seen);
  };
  const timer = setInterval(tick, Math.max(250, deps.policy.heartbeatIntervalMs / 2));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** One round's transition lines: the first TRANSITION_LINES_MAX, then a count per state. */
function transitionLog(log: (line: string) => void) {
  let logged = 0;
  const leftOut = new Map<NodeLiveness, number>();
  return {
    add(nodeName: string, state: NodeLiveness) {
      if (logged < TRANSITION_LINES_MAX) {
        logged += 1;
        return log(`node ${nodeName} is ${state}`);
      }
      leftOut.set(state, (leftOut.get(state) ?? 0) + 1);
    },
    flush() {
      if (leftOut.size === 0) return;
      const counts = [...leftOut].map(([state, count]) => `${count} ${state}`).join(", ");
      const total = [...leftOut.values()].reduce((sum, count) => sum + count, 0);
      log(`${total} more nodes changed state in this round (${counts}); not logged one by one`);
    },
  };
}
