// When a node's replicas stop counting: an unreachable node keeps them (a network blip must not
// cause rebuilds), a lost one does not. Lost is derived from the time, never stored.
import type { ReconcileNode, ReconcilePolicy } from "./types";

export function isNodeLost(
  node: ReconcileNode | undefined,
  nowMs: number,
  policy: ReconcilePolicy,
): boolean {
  // A replica on a node nobody knows has nothing to count on.
  if (!node) return true;
  if (node.node.isReachable || node.unreachableSinceMs === null) return false;
  return nowMs - node.unreachableSinceMs > policy.lostAfterMs;
}
