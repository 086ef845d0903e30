// Whether a node is reachable is derived from when it last spoke, never stored: a value computed
// at read time cannot drift from the heartbeats it stands for.

export type NodeLiveness = "ready" | "unreachable";

export interface LivenessPolicy {
  heartbeatIntervalMs: number;
  /** Heartbeats that may be missed before the node counts as unreachable. */
  missedHeartbeatsMax: number;
}

export const DEFAULT_LIVENESS: LivenessPolicy = {
  heartbeatIntervalMs: 2_000,
  missedHeartbeatsMax: 3,
};

/** The moment after which a node that last spoke at `lastSeenMs` is unreachable. */
export function unreachableAfterMs(lastSeenMs: number, policy: LivenessPolicy): number {
  return lastSeenMs + policy.heartbeatIntervalMs * policy.missedHeartbeatsMax;
}

export function nodeLiveness(
  input: { isConnected: boolean; lastSeenMs: number },
  nowMs: number,
  policy: LivenessPolicy,
): NodeLiveness {
  if (!input.isConnected) return "unreachable";
  return nowMs > unreachableAfterMs(input.lastSeenMs, policy) ? "unreachable" : "ready";
}
